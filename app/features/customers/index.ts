/**
 * The customers feature's public entry: other features and the admin routes import from here, not
 * from its files (decision 019-l).
 */
export { CustomerPicker, customerPickerDebounceMs, useCustomerLookup, type PickedCustomer } from './customer-picker.tsx';
export { apiErrorMessage, useCreateCustomer, useCustomerProfile } from './api.ts';
export {
  cityLine,
  customerProfilePath,
  customerTypeLabels,
  customerTypeTones,
  formatCalendarDate,
  fullAddress,
  mapsSearchUrl,
  placePinPath,
  telHref,
  workOrderStatusLabel,
  workOrderStatusTone,
} from './labels.ts';
export { PossibleMatchPanel } from './possible-match.tsx';
export { CustomerForm } from './customer-form.tsx';
export { CustomerDirectory, type DirectoryLocationState } from './customer-directory.tsx';
export { CustomerProfile } from './customer-profile.tsx';
