/**
 * The work-orders module's public entry: what other modules (calendar, leads, customer matches)
 * and app.ts use of it. Work orders: create, edit, status, tasks, inspection reports, delete.
 */
export {
  createWorkOrderRepository,
  customerPlaceColumns,
  serviceAddressColumns,
  type NewWorkOrder,
  type WorkOrderRepository,
  type WorkOrderRow,
} from './work-order.repository.ts';
export { workOrderRoutes } from './work-order.routes.ts';
export {
  changeWorkOrderAudited,
  createWorkOrderService,
  durationHours,
  isForeignKeyViolation,
  isSameVersion,
  newWorkOrder,
  recordWorkOrderChange,
  refusalIn,
  sqlLocalTimestamp,
  sqlNow,
  statusesAllowedTo,
  technicianUnavailable,
  toWorkOrder,
  workOrderId,
  workOrderNotFound,
  type WorkOrderService,
  type WorkOrderValues,
} from './work-order.service.ts';
