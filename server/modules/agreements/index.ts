/** Public entry of agreements: other modules import only what this file exports (decision 019-l). */
export { agreementRoutes } from './agreement.routes.ts';
export { createAgreementRepository, type AgreementRepository } from './agreement.repository.ts';
export { createAgreementService, memberDiscountOn, type AgreementService } from './agreement.service.ts';
export { agreementSignupRoutes } from './agreement-signup.routes.ts';
export { createAgreementSignupService, type AgreementSignupService } from './agreement-signup.service.ts';
export { createAgreementSignupPayments, type AgreementSignupPayments } from './agreement-signup.payments.ts';
