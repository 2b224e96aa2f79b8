/** Public entry of customers: other modules import only what this file exports (decision 019-l). */
export { type CustomerRepository } from './customer.repository.ts';
export { recordCustomerChange, toCustomer } from './customer.service.ts';
export { type CustomerService, type PhotoLink, type UploadedFile, thumbnailKeyOf } from './customer.service.ts';
export { type CustomerPhotoRow, equipmentColumns } from './customer.repository.ts';
export { discardRestOfUpload, registerPhotoMultipart, uploadedFiles } from './customer.routes.ts';
export { photoContentType } from './photo-pipeline.ts';
export { sameContact } from './contact-match.ts';
