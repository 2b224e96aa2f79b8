/**
 * Work orders' words and badge tones (status, priority, service type), shared by the back office's
 * features and the technician app: a small shared layer so /tech does not load the back office's
 * customers and work-orders features for a few labels (decision 022-d).
 */
import type { WorkOrderPriority, WorkOrderServiceType, WorkOrderStatus } from '#shared/enums.ts';
import type { BadgeTone } from '#client/components/ui/badge.tsx';

/** Spec 000 section 4: pending warning, scheduled info, in-progress primary, completed success, cancelled danger, other secondary. */
const workOrderStatusTones: Record<WorkOrderStatus, BadgeTone> = {
  pending: 'warning',
  scheduled: 'info',
  'in-progress': 'primary',
  completed: 'success',
  cancelled: 'danger',
};

const workOrderStatusLabels: Record<WorkOrderStatus, string> = {
  pending: 'Pending',
  scheduled: 'Scheduled',
  'in-progress': 'In Progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

function titleCase(value: string): string {
  return value.replace(/[-_]/g, ' ').replace(/\b\w/g, (letter) => letter.toUpperCase());
}

export function workOrderStatusTone(status: string): BadgeTone {
  return workOrderStatusTones[status as WorkOrderStatus] ?? 'neutral';
}

export function workOrderStatusLabel(status: string): string {
  return workOrderStatusLabels[status as WorkOrderStatus] ?? titleCase(status);
}

export const workOrderServiceTypeLabels: Record<WorkOrderServiceType, string> = {
  repair: 'Repair',
  maintenance: 'Maintenance',
  installation: 'Installation',
  inspection: 'Inspection',
  ductwork: 'Ductwork',
};

export const workOrderPriorityLabels: Record<WorkOrderPriority, string> = {
  low: 'Low',
  normal: 'Normal',
  high: 'High',
  emergency: 'Emergency',
};

export function serviceTypeLabel(value: string): string {
  return workOrderServiceTypeLabels[value as WorkOrderServiceType] ?? titleCase(value);
}

export function priorityLabel(value: string): string {
  return workOrderPriorityLabels[value as WorkOrderPriority] ?? titleCase(value);
}

/** Emergency and urgent red, high orange, normal slate, low gray. */
export function priorityTone(value: string): BadgeTone {
  switch (value) {
    case 'emergency':
    case 'urgent':
      return 'danger';
    case 'high':
      return 'accent';
    default:
      return 'neutral';
  }
}
