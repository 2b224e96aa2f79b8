import type { CalendarEvent } from '#shared/calendar.ts';

// Spec 001 section 4: emergency red; high orange; otherwise the technician's own colour; otherwise
// by status (scheduled purple, in-progress yellow, completed green, cancelled grey, else teal).

export const statusColors = {
  pending: '#0f766e',
  scheduled: '#7c3aed',
  'in-progress': '#ca8a04',
  completed: '#15803d',
  cancelled: '#6b7280',
} as const;
export const emergencyColor = '#dc2626';
export const highColor = '#ea580c';

export function eventColor(event: Pick<CalendarEvent, 'priority' | 'status' | 'technician'>): string {
  if (event.priority === 'emergency') return emergencyColor;
  if (event.priority === 'high') return highColor;
  if (event.technician?.color) return event.technician.color;
  return statusColors[event.status] ?? statusColors.pending;
}

/** Dark or white text, whichever reads better on the colour (WCAG relative luminance). */
export function contrastText(hex: string): string {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!match) return '#ffffff';
  const value = Number.parseInt(match[1]!, 16);
  const channel = (shift: number) => {
    const c = ((value >> shift) & 255) / 255;
    return c <= 0.039_28 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0);
  // White wins when its contrast ratio (1.05 / (L + 0.05)) beats near-black's ((L + 0.05) / 0.05).
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? '#ffffff' : '#111827';
}
