import { z } from 'zod';
import { customerTypes, refrigerantTypes, tonnages } from './enums.ts';
import { countLabel } from './api.ts';
import { emptyToNull } from './contact.ts';
import { isValidIsoDate } from './dates.ts';

// Customers (spec 000 sections 2, 3, 5, 7, 8, 9): the form's schema, the API's shapes and the
// screens' exact words. One place for all three.

export const customerMessages = {
  createFailed: (message: string) => `Error creating customer: ${message}`,
  updateFailed: (message: string) => `Error updating customer: ${message}`,
  deleteFailed: (message: string) => `Error deleting customer: ${message}`,
  unexpected: 'An unexpected error occurred',
  createFailedInWorkOrderFlow: 'Error creating customer',
  deleteConfirm: 'Are you sure you want to delete this customer? This action cannot be undone.',
  notFoundTitle: 'Customer not found',
  notFoundText: 'The requested customer could not be located.',
  noResultsTitle: 'No customers found',
  noResultsText: 'Try adjusting your search terms',
  emptyTitle: 'No customers yet',
  emptyText: 'Add your first customer to get started!',
  noPhotos: 'No photos available',
  notProvided: 'Not provided',
  uploadSucceeded: 'Uploaded successfully',
  uploadFailed: (message: string) => `Upload failed: ${message}`,
} as const;

/** The directory's count: "1 customer", "1,234 customers", "1,000+ customers" (capped). */
export function customerCountLabel(count: number, isCapped = false): string {
  return countLabel(count, isCapped, { one: 'customer', many: 'customers' });
}

const optionalText = (max: number) => z.preprocess(emptyToNull, z.string().trim().max(max).nullable()).default(null);

/**
 * New customer and customer edit (spec 000 section 5): name, type, phone, address, city and state
 * required; email, zip and every equipment field optional. Defaults Bluffton, SC, residential,
 * equipment flags off. Staff type phone numbers as they come (extensions included), so the rule
 * is "at least 7 digits", not the web forms' strict US format.
 */
export const customerInputSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(200),
  type: z.enum(customerTypes, { error: 'Type is required' }).default('residential'),
  phone: z
    .string()
    .trim()
    .min(1, { error: 'Phone is required', abort: true })
    .max(40, 'Phone is too long')
    .refine((value) => value.replace(/\D/g, '').length >= 7, 'Please enter a valid phone number'),
  email: z.preprocess(emptyToNull, z.string().trim().max(254).pipe(z.email('Please enter a valid email address')).nullable()).default(null),
  address: z.string().trim().min(1, 'Address is required').max(300),
  city: z.string().trim().min(1, 'City is required').max(100).default('Bluffton'),
  state: z.string().trim().min(1, 'State is required').max(2, 'Use the two-letter state code').toUpperCase().default('SC'),
  zip: z.preprocess(emptyToNull, z.string().trim().regex(/^\d{5}(-\d{4})?$/, 'Please enter a 5-digit ZIP code').nullable()).default(null),
  notes: optionalText(5000),
  hasIndoorUnit: z.boolean().default(false),
  hasOutdoorUnit: z.boolean().default(false),
  unitBrand: optionalText(100),
  unitModel: optionalText(100),
  unitSerial: optionalText(100),
  installDate: z.preprocess(emptyToNull, z.string().refine(isValidIsoDate, 'Please enter a valid date').nullable()).default(null),
  refrigerantType: z.preprocess(emptyToNull, z.enum(refrigerantTypes, { error: 'Choose a refrigerant from the list' }).nullable()).default(null),
  tonnage: z.preprocess(emptyToNull, z.enum(tonnages, { error: 'Choose a tonnage from the list' }).nullable()).default(null),
});
export type CustomerInput = z.input<typeof customerInputSchema>;
export type CustomerValues = z.output<typeof customerInputSchema>;

/** The directory: case-insensitive search over name, phone, e-mail and address, paged on the server. */
export const customerListQuerySchema = z.object({
  search: z.string().trim().max(200).default(''),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
});
export type CustomerListQuery = z.input<typeof customerListQuerySchema>;

/** The pickers (new work order, calendar): name or phone, at least 2 characters, at most 10 results. */
export const customerLookupQuerySchema = z.object({
  q: z.string().trim().min(2, 'Type at least 2 characters').max(100),
});
export const customerLookupLimit = 10;

/** A customer's contact and address as answers carry them: the directory's rows and the map's details. */
export const customerContactShape = {
  phone: z.string(),
  email: z.string().nullable(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string().nullable(),
};

export const customerListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(customerTypes),
  ...customerContactShape,
});
export type CustomerListItem = z.infer<typeof customerListItemSchema>;

export const customerListResponseSchema = z.object({
  customers: z.array(customerListItemSchema),
  total: z.number().int(),
  /** The matches are counted only up to a cap: true when there are more than `total`. */
  totalCapped: z.boolean(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type CustomerListResponse = z.infer<typeof customerListResponseSchema>;

/** GET /api/admin/customers/lookup: the pickers' matches. */
export const customerLookupResponseSchema = z.object({ customers: z.array(customerListItemSchema) });
export type CustomerLookupResponse = z.infer<typeof customerLookupResponseSchema>;

export const customerSchema = customerListItemSchema.extend({
  notes: z.string().nullable(),
  hasIndoorUnit: z.boolean(),
  hasOutdoorUnit: z.boolean(),
  unitBrand: z.string().nullable(),
  unitModel: z.string().nullable(),
  unitSerial: z.string().nullable(),
  installDate: z.string().nullable(),
  refrigerantType: z.string().nullable(),
  tonnage: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  geocodingStatus: z.enum(['pending', 'success', 'failed']),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Customer = z.infer<typeof customerSchema>;

/** A customer's answer (create, edit, placed pin). */
export const customerResponseSchema = z.object({ customer: customerSchema });
export type CustomerResponse = z.infer<typeof customerResponseSchema>;

export const customerPhotoSchema = z.object({
  id: z.string(),
  /** Staff-only URLs (session cookie): the display-size image and the thumbnail. */
  url: z.string(),
  thumbnailUrl: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  createdAt: z.string(),
});
export type CustomerPhoto = z.infer<typeof customerPhotoSchema>;

/** POST /api/admin/customers/:id/photos: the photos added. */
export const customerPhotosResponseSchema = z.object({ photos: z.array(customerPhotoSchema) });
export const photoParamsSchema = z.object({ id: z.string(), photoId: z.string() });

export const customerEquipmentSchema = z.object({
  id: z.string(),
  equipmentType: z.string(),
  location: z.string().nullable(),
  brand: z.string().nullable(),
  model: z.string().nullable(),
  serialNumber: z.string().nullable(),
  /** Issue 19: refrigerant (refrigerantTypes) and nominal tons (tonnages), when recorded. */
  refrigerant: z.string().nullable().optional(),
  tonnage: z.string().nullable().optional(),
  warrantyStatus: z.string().nullable(),
});
export type CustomerEquipment = z.infer<typeof customerEquipmentSchema>;

export const customerWorkOrderSummarySchema = z.object({
  id: z.string(),
  workOrderNumber: z.string(),
  title: z.string(),
  status: z.string(),
  priority: z.string(),
  serviceType: z.string(),
  serviceDate: z.string(),
  createdAt: z.string(),
});
export type CustomerWorkOrderSummary = z.infer<typeof customerWorkOrderSummarySchema>;

/** GET /api/admin/customers/:id — the profile with its equipment, photos and work orders (newest first). */
export const customerProfileResponseSchema = z.object({
  customer: customerSchema,
  equipment: z.array(customerEquipmentSchema),
  photos: z.array(customerPhotoSchema),
  workOrders: z.array(customerWorkOrderSummarySchema),
});
export type CustomerProfileResponse = z.infer<typeof customerProfileResponseSchema>;

/**
 * One piece of equipment as a form or the technician app writes it (issue 19 adds refrigerant
 * and tonnage, both optional).
 */
export const equipmentInputSchema = z.object({
  equipmentType: z.string().trim().min(1, 'Equipment type is required').max(100),
  location: optionalText(200),
  brand: optionalText(100),
  model: optionalText(100),
  serialNumber: optionalText(100),
  refrigerant: z.enum(refrigerantTypes).nullable().optional(),
  tonnage: z.enum(tonnages).nullable().optional(),
  warrantyStatus: optionalText(100),
});
export type EquipmentInput = z.input<typeof equipmentInputSchema>;

/** Photo upload limits (OWASP file upload): by content, not by name or declared type. */
export const photoUploadLimits = {
  maxBytes: 15 * 1024 * 1024,
  maxPixels: 50_000_000,
  maxFilesPerRequest: 10,
  acceptedTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'] as const,
} as const;

// Additions for the customer API (server and screens read the same words and limits) -------------

/** The multipart field the photo upload sends its files in (one or more parts with this name). */
export const photoUploadField = 'photos';

/** The profile lists at most this many of the customer's work orders, newest first. */
export const customerProfileWorkOrderLimit = 100;

export type CustomerPhotoVariant = 'display' | 'thumbnail';

/** Where a staff browser loads a photo from (the session cookie is the key; nothing is public). */
export function customerPhotoUrl(customerId: string, photoId: string, variant: CustomerPhotoVariant): string {
  return `/api/admin/customers/${customerId}/photos/${photoId}/${variant}`;
}

/** Why a photo upload or a delete was refused: shown after 'Upload failed: ' / 'Error deleting customer: '. */
export const customerPhotoMessages = {
  notAnImage: (fileName: string) => `${fileName} is not a JPEG, PNG, WebP or HEIC image`,
  tooLarge: (fileName: string) => `${fileName} is larger than 15 MB. Please upload a smaller photo.`,
  tooManyPixels: (fileName: string, megapixels: number) =>
    `${fileName} is ${megapixels} megapixels. Photos can be at most 50 megapixels.`,
  unreadable: (fileName: string) => `${fileName} could not be read as an image. It may be damaged or incomplete.`,
  heicUnreadable: (fileName: string) =>
    `This HEIC photo (${fileName}) could not be read. Please upload it as JPEG (on iPhone: Settings > Camera > Formats > Most Compatible).`,
  tooManyFiles: `Upload at most ${photoUploadLimits.maxFilesPerRequest} photos at a time.`,
  noFiles: 'Choose at least one photo to upload.',
  wrongField: `Send the photos in the "${photoUploadField}" form field.`,
  notMultipart: 'Send the photos as multipart/form-data.',
  malformed: 'The upload could not be read. Please try again.',
  photoNotFound: 'Photo not found',
} as const;

/** 409 on delete: job history is never removed silently (work_orders.customer_id is ON DELETE RESTRICT). */
export function customerDeleteBlockedMessage(workOrderCount: number): string {
  return workOrderCount === 1
    ? 'This customer has 1 work order. Delete or reassign it first.'
    : `This customer has ${workOrderCount.toLocaleString('en-US')} work orders. Delete or reassign them first.`;
}
