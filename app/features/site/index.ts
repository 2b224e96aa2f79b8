/** Public entry of site: other features import only what this file exports (decision 019-l). */
export { ContactField, FormErrorAlert, HoneypotField, PersonFields, RequiredFieldsNote } from './contact-fields.tsx';
