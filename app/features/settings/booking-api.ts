import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BookingSettingsInput, BookingSettingsPage, TechnicianAvailabilityInput, TechnicianBookingResponse, TimeOffInput, TimeOffResponse } from '#shared/booking.ts';
import { apiFetch } from '#client/lib/api.ts';

/** Settings -> Online booking (issue 21): the rules, and each technician's hours, service types and time off. */
export const bookingSettingsKey = ['settings', 'booking'] as const;

const bookingPath = '/api/admin/settings/booking';

export function useBookingSettings() {
  return useQuery({ queryKey: bookingSettingsKey, queryFn: ({ signal }) => apiFetch<BookingSettingsPage>(bookingPath, { signal }) });
}

/** Every change refreshes the page: time off and hours come back as stored, in the server's order. */
function useBookingMutation<Variables, Answer>(mutationFn: (variables: Variables) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: bookingSettingsKey }) });
}

/** The answer is the settings as stored: windows in order, each ZIP code once. */
export function useSaveBookingSettings() {
  return useBookingMutation((body: BookingSettingsInput) => apiFetch<Pick<BookingSettingsPage, 'settings' | 'updatedAt'>>(bookingPath, { method: 'PUT', body }));
}

export function useSaveTechnicianAvailability() {
  return useBookingMutation(({ id, ...body }: TechnicianAvailabilityInput & { id: string }) =>
    apiFetch<TechnicianBookingResponse>(`${bookingPath}/technicians/${encodeURIComponent(id)}`, { method: 'PUT', body }),
  );
}

export function useAddTimeOff() {
  return useBookingMutation(({ technicianId, ...body }: TimeOffInput & { technicianId: string }) =>
    apiFetch<TimeOffResponse>(`${bookingPath}/technicians/${encodeURIComponent(technicianId)}/time-off`, { method: 'POST', body }),
  );
}

export function useRemoveTimeOff() {
  return useBookingMutation((id: string) => apiFetch<void>(`${bookingPath}/time-off/${encodeURIComponent(id)}`, { method: 'DELETE' }));
}
