import { useActiveTechnicians } from '#client/features/work-orders/index.ts';
import { emergencyColor, highColor, statusColors } from './colors.ts';

/** What the event colours mean: the statuses, each active technician, and the urgent priorities. */
export function CalendarLegend() {
  const technicians = useActiveTechnicians();
  const legend = [
    { label: 'Pending', color: statusColors.pending },
    { label: 'Scheduled', color: statusColors.scheduled },
    { label: 'In Progress', color: statusColors['in-progress'] },
    { label: 'Completed', color: statusColors.completed },
    ...(technicians.data?.technicians ?? []).map((technician) => ({ label: technician.name, color: technician.color })),
    { label: 'High', color: highColor },
    { label: 'Emergency', color: emergencyColor },
  ];
  return (
    <ul aria-label="Legend" className="flex flex-wrap gap-x-4 gap-y-2 text-sm text-slate-700">
      {legend.map((item) => (
        <li key={item.label} className="inline-flex items-center gap-2">
          <span aria-hidden="true" className="inline-block size-3 rounded-sm" style={{ backgroundColor: item.color }} />
          {item.label}
        </li>
      ))}
    </ul>
  );
}
