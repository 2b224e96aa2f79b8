/** Business constants of the spec (document 000, section 9) that the site and the chat both state. */
export const serviceCallFeeFrom = 89;
/** Estimates are promised within this many hours. */
export const estimateResponseHours = 24;
export const companyStats = { happyCustomers: '5000+', yearsInBusiness: '15+', emergencyService: '24/7' } as const;
export const acceptedPayments = ['Visa', 'PayPal', 'Cash', 'Zelle'] as const;
