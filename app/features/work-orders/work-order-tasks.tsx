import { useId, useState, type FormEvent } from 'react';
import { workOrderMessages } from '#shared/work-order.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { controlClass, FormField } from '#client/components/ui/form-field.tsx';
import { apiErrorMessage } from '#client/features/customers/index.ts';
import { useAddWorkOrderTask, useUpdateWorkOrderTask, type WorkOrderDetailResponse } from './api.ts';
import { DetailCard } from './detail-card.tsx';

/** The task checklist: ticking a task saves it (the box follows at once), and a form adds one. */
export function TasksCard({ workOrderId, tasks }: { workOrderId: string; tasks: WorkOrderDetailResponse['tasks'] }) {
  const idPrefix = useId();
  const [taskName, setTaskName] = useState('');
  const [minutes, setMinutes] = useState('');
  const [error, setError] = useState<string>();
  const addTask = useAddWorkOrderTask(workOrderId);
  const updateTask = useUpdateWorkOrderTask(workOrderId);
  // The box follows the click at once; the saved state replaces it when the refresh arrives.
  const [optimistic, setOptimistic] = useState<Record<string, boolean>>({});
  const isDone = (task: WorkOrderDetailResponse['tasks'][number]) => optimistic[task.id] ?? task.status === 'completed';
  const completed = tasks.filter(isDone).length;

  function toggle(taskId: string, done: boolean) {
    setError(undefined);
    setOptimistic((current) => ({ ...current, [taskId]: done }));
    updateTask.mutate(
      { taskId, status: done ? 'completed' : 'pending' },
      {
        onError: (failure) => setError(`Error updating task: ${apiErrorMessage(failure) ?? workOrderMessages.unexpected}`),
        onSettled: () =>
          setOptimistic((current) => {
            const next = { ...current };
            delete next[taskId];
            return next;
          }),
      },
    );
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(undefined);
    if (!taskName.trim()) {
      setError('Task name is required');
      return;
    }
    try {
      await addTask.mutateAsync({ taskName: taskName.trim(), status: 'pending', timeSpentMinutes: minutes ? Number(minutes) : null });
      setTaskName('');
      setMinutes('');
    } catch (failure) {
      setError(`Error adding task: ${apiErrorMessage(failure) ?? workOrderMessages.unexpected}`);
    }
  }

  return (
    <DetailCard title="Task Checklist">
      {tasks.length > 0 ? (
        <>
          <p className="text-sm text-slate-700">
            {completed} of {tasks.length} completed
          </p>
          <ul className="mt-2 space-y-2">
            {tasks.map((task) => (
              <li key={task.id} className="flex items-center gap-3">
                <input
                  id={`${idPrefix}-${task.id}`}
                  type="checkbox"
                  checked={isDone(task)}
                  onChange={(event) => toggle(task.id, event.target.checked)}
                  className="h-5 w-5 rounded border-slate-400 text-brand-700"
                />
                <label htmlFor={`${idPrefix}-${task.id}`} className={`text-sm ${isDone(task) ? 'text-slate-600 line-through' : 'text-slate-900'}`}>
                  {task.taskName}
                  {task.timeSpentMinutes != null ? <span className="text-slate-600"> · {task.timeSpentMinutes} min</span> : null}
                </label>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="text-sm text-slate-600">No tasks yet.</p>
      )}
      <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Add task" className="mt-4 grid gap-3 sm:grid-cols-[1fr_8rem_auto] sm:items-end">
        <FormField id={`${idPrefix}-name`} label="New task">
          <input id={`${idPrefix}-name`} value={taskName} onChange={(event) => setTaskName(event.target.value)} maxLength={200} className={controlClass} />
        </FormField>
        <FormField id={`${idPrefix}-minutes`} label="Minutes">
          <input id={`${idPrefix}-minutes`} type="number" min={0} inputMode="numeric" value={minutes} onChange={(event) => setMinutes(event.target.value)} className={controlClass} />
        </FormField>
        <Button type="submit" variant="secondary" disabled={addTask.isPending}>
          {addTask.isPending ? 'Adding...' : 'Add Task'}
        </Button>
      </form>
      <div aria-live="assertive">{error ? <Alert className="mt-3">{error}</Alert> : null}</div>
    </DetailCard>
  );
}
