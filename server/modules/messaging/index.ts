/**
 * The messaging module's public entry (issue 18, decision 021-a): what app.ts uses. Customer
 * messages planned from work orders' state and sent by e-mail (the outbox) and text.
 */
export { createInboundTextService, type InboundTextService } from './messaging.inbound.ts';
export { inboundTextRoutes } from './messaging.inbound-routes.ts';
export { createMessagingRepository, type MessagingRepository } from './messaging.repository.ts';
export { messagingRoutes } from './messaging.routes.ts';
export { createMessagingRunner, type MessagingRunner } from './messaging.runner.ts';
export { canMarkEnRoute, createMessagingService, type MessagingService } from './messaging.service.ts';
export { carryFormSmsConsent, recordFormSmsConsent } from './messaging.consent.ts';
export { queueDocumentMessages, type DocumentMessageType, type QueuedDocumentMessages } from './messaging.documents.ts';
export { linkNotKept } from './messaging.dispatcher.ts';
export { messageTemplateFor } from './messaging.templates.ts';
export { estimateTextsPerNumberPerDay, queueEstimateReceivedText } from './messaging.estimate.ts';
