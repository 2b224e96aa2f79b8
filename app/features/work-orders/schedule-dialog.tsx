import { useId, useRef, useState, type FormEvent } from 'react';
import { todayIn } from '#shared/dates.ts';
import { defaultScheduleDurationHours, scheduleDurations, scheduleEndTime, scheduleStartTimes, workOrderMessages } from '#shared/work-order.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { controlClass, FormField } from '#client/components/ui/form-field.tsx';
import { company } from '#client/lib/company.ts';
import { apiErrorMessage } from '#client/features/customers/index.ts';
import { useActiveTechnicians, useScheduleWorkOrder, isConflict, type WorkOrder } from './api.ts';
import { formatClockTime } from './labels.ts';

const durationLabel = (hours: number) => (hours === 8 ? 'Full day' : `${hours} ${hours === 1 ? 'hour' : 'hours'}`);

/**
 * Schedule appointment (spec 000 sections 2 and 5): date (not before today) and start time are
 * required, duration 1-4 hours or a full day (2 by default), the computed end time, a technician
 * or 'Unassigned', special instructions.
 */
export function ScheduleDialog({
  workOrder,
  onClose,
  onScheduled,
  onConflict,
}: {
  workOrder: WorkOrder;
  onClose: () => void;
  onScheduled: () => void;
  onConflict: () => void;
}) {
  const idPrefix = useId();
  const today = todayIn(company.timeZone);
  const dateRef = useRef<HTMLInputElement>(null);
  const [date, setDate] = useState('');
  const [startTime, setStartTime] = useState('');
  const [durationHours, setDurationHours] = useState<number>(defaultScheduleDurationHours);
  const [technicianId, setTechnicianId] = useState(workOrder.technicianId ?? '');
  const [specialInstructions, setSpecialInstructions] = useState(workOrder.specialInstructions ?? '');
  const [error, setError] = useState<string>();
  const technicians = useActiveTechnicians();
  const schedule = useScheduleWorkOrder(workOrder.id);
  const isComplete = Boolean(date && startTime);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(undefined);
    // One of the offered start times (the select's options), with the type the schema checks.
    const start = scheduleStartTimes.find((time) => time === startTime);
    if (!isComplete || !start) {
      setError(workOrderMessages.scheduleNeedsDateAndTime);
      return;
    }
    try {
      await schedule.mutateAsync({
        date,
        startTime: start,
        durationHours,
        technicianId: technicianId || null,
        specialInstructions: specialInstructions.trim() || null,
        expectedUpdatedAt: workOrder.updatedAt,
      });
      onScheduled();
    } catch (failure) {
      if (isConflict(failure)) {
        onConflict();
        return;
      }
      setError(workOrderMessages.scheduleFailed(apiErrorMessage(failure) ?? workOrderMessages.unexpected));
    }
  }

  return (
    <Dialog
      title="Schedule Appointment"
      description={`${workOrder.workOrderNumber ?? ''} ${workOrder.title}`.trim()}
      onClose={() => (schedule.isPending ? undefined : onClose())}
      initialFocusRef={dateRef}
      className="max-w-lg"
    >
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4" aria-label="Schedule appointment">
        <div aria-live="assertive">{error ? <Alert>{error}</Alert> : null}</div>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id={`${idPrefix}-date`} label="Date" isRequired>
            <input
              ref={dateRef}
              id={`${idPrefix}-date`}
              type="date"
              min={today}
              value={date}
              onChange={(event) => setDate(event.target.value)}
              required
              className={controlClass}
            />
          </FormField>
          <FormField id={`${idPrefix}-time`} label="Start Time" isRequired>
            <select id={`${idPrefix}-time`} value={startTime} onChange={(event) => setStartTime(event.target.value)} required className={controlClass}>
              <option value="">Select a time</option>
              {scheduleStartTimes.map((time) => (
                <option key={time} value={time}>
                  {formatClockTime(time)}
                </option>
              ))}
            </select>
          </FormField>
          <FormField id={`${idPrefix}-duration`} label="Duration">
            <select id={`${idPrefix}-duration`} value={durationHours} onChange={(event) => setDurationHours(Number(event.target.value))} className={controlClass}>
              {scheduleDurations.map((hours) => (
                <option key={hours} value={hours}>
                  {durationLabel(hours)}
                </option>
              ))}
            </select>
          </FormField>
          <FormField id={`${idPrefix}-technician`} label="Technician">
            <select id={`${idPrefix}-technician`} value={technicianId} onChange={(event) => setTechnicianId(event.target.value)} className={controlClass}>
              <option value="">Unassigned</option>
              {(technicians.data?.technicians ?? []).map((technician) => (
                <option key={technician.id} value={technician.id}>
                  {technician.name}
                </option>
              ))}
            </select>
          </FormField>
        </div>
        <p aria-live="polite" className="text-sm text-slate-700">
          {startTime ? (
            <>
              Ends at <strong>{formatClockTime(scheduleEndTime(startTime, durationHours))}</strong>
            </>
          ) : (
            'Choose a start time to see the end time.'
          )}
        </p>
        <FormField id={`${idPrefix}-instructions`} label="Special Instructions">
          <textarea
            id={`${idPrefix}-instructions`}
            value={specialInstructions}
            onChange={(event) => setSpecialInstructions(event.target.value)}
            rows={3}
            maxLength={2000}
            className={controlClass}
          />
        </FormField>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={schedule.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="accent" disabled={!isComplete || schedule.isPending}>
            {schedule.isPending ? 'Scheduling...' : 'Schedule'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
