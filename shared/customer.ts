import { z } from 'zod';
import { customerTypes, refrigerantTypes, tonnages } from './enums.ts';
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

/** "1 customer", "2 customers": the directory's count. */
export function customerCountLabel(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'customer' : 'customers'}`;
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

export type CustomerListItem = {
  id: string;
  name: string;
  type: (typeof customerTypes)[number];
  phone: string;
  email: string | null;
  address: string;
  city: string;
  state: string;
  zip: string | null;
};

export type CustomerListResponse = { customers: CustomerListItem[]; total: number; page: number; pageSize: number };

export type Customer = CustomerListItem & {
  notes: string | null;
  hasIndoorUnit: boolean;
  hasOutdoorUnit: boolean;
  unitBrand: string | null;
  unitModel: string | null;
  unitSerial: string | null;
  installDate: string | null;
  refrigerantType: string | null;
  tonnage: string | null;
  latitude: number | null;
  longitude: number | null;
  geocodingStatus: 'pending' | 'success' | 'failed';
  createdAt: string;
  updatedAt: string;
};

export type CustomerPhoto = {
  id: string;
  /** Staff-only URLs (session cookie): the display-size image and the thumbnail. */
  url: string;
  thumbnailUrl: string;
  width: number | null;
  height: number | null;
  createdAt: string;
};

export type CustomerEquipment = {
  id: string;
  equipmentType: string;
  location: string | null;
  brand: string | null;
  model: string | null;
  serialNumber: string | null;
  warrantyStatus: string | null;
};

export type CustomerWorkOrderSummary = {
  id: string;
  workOrderNumber: string;
  title: string;
  status: string;
  priority: string;
  serviceType: string;
  serviceDate: string;
  createdAt: string;
};

/** GET /api/admin/customers/:id — the profile with its equipment, photos and work orders (newest first). */
export type CustomerProfileResponse = {
  customer: Customer;
  equipment: CustomerEquipment[];
  photos: CustomerPhoto[];
  workOrders: CustomerWorkOrderSummary[];
};

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
