/** Public entry of customers: other modules import only what this file exports (decision 019-l). */
export { type CustomerRepository } from './customer.repository.ts';
export { recordCustomerChange, toCustomer } from './customer.service.ts';
