/** Public entry of work-orders: other features import only what this file exports (decision 019-l). */
export { useActiveTechnicians, useWorkOrderDetail, workOrderKeys } from './api.ts';
export { formatCalendarDate, formatClockTime, formatDateTime, priorityClass, priorityLabel, priorityTone, serviceTypeLabel, truncate, workOrderDetailPath, workOrderNumberLabel, workOrderStatusLabel, workOrderStatusTone } from './labels.ts';
export { WorkOrderFieldset } from './work-order-fields.tsx';
export { WorkOrderDetail } from './work-order-detail.tsx';
export { NewWorkOrder } from './work-order-new.tsx';
export { WorkOrderList } from './work-order-list.tsx';
export { InspectionReportFields, inspectionItemTags, type InspectionReportInput } from '#client/components/inspection-report-fields.tsx';
