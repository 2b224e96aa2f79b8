/** Public entry of agreements (issue 22): other features import only what this file exports (decision 019-l). */
export { agreementKeys, useAgreementSummary } from './api.ts';
export { CustomerAgreements } from './customer-agreements.tsx';
export { VisitsDueScreen } from './visits-due-screen.tsx';
export { AgreementFigures } from './agreement-figures.tsx';
