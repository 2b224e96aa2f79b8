import { z } from 'zod';

/**
 * Technicians as settings manages them (issue 10): name, calendar colour (#rrggbb), active.
 * Inactive technicians leave the pickers for new work and stay on the orders they had.
 */
export const technicianSettingsItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string(),
  active: z.boolean(),
  /** Open (pending, scheduled, in progress) work orders assigned to the technician. */
  openWorkOrders: z.number().int(),
  /**
   * The e-mail of the staff account that is this technician (their sign-in to the technician app),
   * or null. It works only while the technician is active (decision 022-a, "Later").
   */
  accountEmail: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TechnicianSettingsItem = z.infer<typeof technicianSettingsItemSchema>;

export const technicianSettingsListResponseSchema = z.object({ technicians: z.array(technicianSettingsItemSchema) });
export type TechnicianSettingsListResponse = z.infer<typeof technicianSettingsListResponseSchema>;
export const technicianSettingsResponseSchema = z.object({ technician: technicianSettingsItemSchema });
export type TechnicianSettingsResponse = z.infer<typeof technicianSettingsResponseSchema>;

/** A technician as the calendar and the pickers read it (GET /api/admin/technicians). */
export const technicianSchema = z.object({ id: z.string(), name: z.string(), color: z.string(), active: z.boolean() });
export type Technician = z.infer<typeof technicianSchema>;
export const technicianListQuerySchema = z.object({ active: z.enum(['true', 'false']).optional() });
export const technicianListResponseSchema = z.object({ technicians: z.array(technicianSchema) });
export type TechnicianListResponse = z.infer<typeof technicianListResponseSchema>;

export const technicianMessages = {
  nameRequired: 'Enter the technician’s name.',
  nameTooLong: 'Keep the name under 80 characters.',
  colorInvalid: 'Choose a colour as #rrggbb, for example #2563eb.',
  nameTaken: (name: string) => `An active technician is already called ${name}. Choose another name.`,
  notFound: 'That technician no longer exists.',
  nothingToChange: 'Nothing to change.',
} as const;

export const technicianColorSchema = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, technicianMessages.colorInvalid)
  .transform((value) => value.toLowerCase());

const nameSchema = z
  .string(technicianMessages.nameRequired)
  .trim()
  .min(1, technicianMessages.nameRequired)
  .max(80, technicianMessages.nameTooLong)
  // One space between words: 'Mike  Johnson' and 'Mike Johnson' are one name.
  .transform((value) => value.replace(/\s+/g, ' '));

export const technicianCreateSchema = z.object({
  name: nameSchema,
  color: technicianColorSchema,
});
export type TechnicianCreateInput = z.input<typeof technicianCreateSchema>;

export const technicianUpdateSchema = z
  .object({
    name: nameSchema.optional(),
    color: technicianColorSchema.optional(),
    active: z.boolean().optional(),
  })
  .refine((value) => value.name !== undefined || value.color !== undefined || value.active !== undefined, technicianMessages.nothingToChange);
export type TechnicianUpdateInput = z.input<typeof technicianUpdateSchema>;

/** A colour for a new technician: the first of these no active technician uses yet. */
export const technicianPalette = ['#2563eb', '#db2777', '#16a34a', '#9333ea', '#0891b2', '#b45309', '#4f46e5', '#be123c'] as const;
