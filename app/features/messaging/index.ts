/** Public entry of messaging (issue 18): other features import only what this file exports (decision 019-l). */
export {
  messagingKeys,
  refusalText,
  useMarkEnRoute,
  useMessageTemplates,
  useMessagingSettings,
  useRestoreMessageTemplate,
  useSaveMessageTemplate,
  useSaveMessagingSettings,
  useSendTestMessage,
  useWorkOrderMessages,
  type MessageTemplateListResponse,
  type TestMessageBody,
} from './api.ts';
export { formatMessageTime, smsLength, smsLengthLine, type SmsLength } from './labels.ts';
export { MessageHistory } from './message-history.tsx';
export { CustomerMessagesSection } from './customer-messages.tsx';
