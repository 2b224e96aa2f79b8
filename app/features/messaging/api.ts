import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  ConsentUpdate,
  consentResponseSchema,
  CustomerMessagingResponse,
  MessageChannel,
  MessageListResponse,
  messageResponseSchema,
  messageTemplateListResponseSchema,
  messageTemplateResponseSchema,
  messageTemplateTestSchema,
  MessageTemplateTestResponse,
  MessageTemplateUpdate,
  MessageType,
  MessagingSettings,
  messagingSettingsResponseSchema,
} from '#shared/messaging.ts';
import type { WorkOrderResponse } from '#shared/work-order.ts';
import { ApiError, apiFetch } from '#client/lib/api.ts';
import { messagePollInterval } from './labels.ts';

export type MessageResponse = z.infer<typeof messageResponseSchema>;
export type ConsentResponse = z.infer<typeof consentResponseSchema>;
export type MessageTemplateListResponse = z.infer<typeof messageTemplateListResponseSchema>;
export type MessageTemplateResponse = z.infer<typeof messageTemplateResponseSchema>;
export type MessagingSettingsResponse = z.infer<typeof messagingSettingsResponseSchema>;
export type TestMessageBody = z.input<typeof messageTemplateTestSchema>;

/**
 * Query keys. The histories sit under the live-update prefixes (live-query-keys.ts): a change to a
 * work order or a customer refetches them, as it may have planned, cancelled or skipped messages.
 */
export const messagingKeys = {
  workOrderMessages: () => ['work-orders', 'messages'] as const,
  workOrder: (id: string) => [...messagingKeys.workOrderMessages(), id] as const,
  customerMessaging: () => ['customers', 'messaging'] as const,
  customer: (id: string) => [...messagingKeys.customerMessaging(), id] as const,
  templates: () => ['settings', 'message-templates'] as const,
  settings: () => ['settings', 'messaging'] as const,
};

const workOrderPath = (id: string) => `/api/admin/work-orders/${encodeURIComponent(id)}`;
const customerPath = (id: string) => `/api/admin/customers/${encodeURIComponent(id)}`;
const templatePath = (type: MessageType) => `/api/admin/settings/message-templates/${encodeURIComponent(type)}`;

/** A work order's messages; `changedAt` (its updatedAt) keeps them refreshing while the planner catches up. */
export function useWorkOrderMessages(id: string, changedAt?: string) {
  return useQuery({
    queryKey: messagingKeys.workOrder(id),
    queryFn: ({ signal }) => apiFetch<MessageListResponse>(`${workOrderPath(id)}/messages`, { signal }),
    refetchInterval: (query) => messagePollInterval(query.state.data?.messages, changedAt, Date.now()),
  });
}

/** A customer's consents and message history. */
export function useCustomerMessaging(id: string, changedAt?: string) {
  return useQuery({
    queryKey: messagingKeys.customer(id),
    queryFn: ({ signal }) => apiFetch<CustomerMessagingResponse>(`${customerPath(id)}/messaging`, { signal }),
    refetchInterval: (query) => messagePollInterval(query.state.data?.messages, changedAt, Date.now()),
  });
}

/** Every history on screen: a resend or a consent change shows on the profile and the work order alike. */
function useInvalidateHistories() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: messagingKeys.workOrderMessages() }),
      queryClient.invalidateQueries({ queryKey: messagingKeys.customerMessaging() }),
    ]);
}

export function useResendMessage() {
  const invalidate = useInvalidateHistories();
  return useMutation({
    mutationFn: (id: string) => apiFetch<MessageResponse>(`/api/admin/messages/${encodeURIComponent(id)}/resend`, { method: 'POST' }),
    onSettled: invalidate,
  });
}

export function useUpdateConsent(customerId: string) {
  const invalidate = useInvalidateHistories();
  return useMutation({
    mutationFn: ({ channel, status }: ConsentUpdate & { channel: MessageChannel }) =>
      apiFetch<ConsentResponse>(`${customerPath(customerId)}/consents/${channel}`, { method: 'PUT', body: { status } }),
    onSettled: invalidate,
  });
}

/** "Mark en route": the server sets the mark, which plans "on my way"; the work order and the histories refresh. */
export function useMarkEnRoute(workOrderId: string) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateHistories();
  return useMutation({
    mutationFn: () => apiFetch<WorkOrderResponse>(`${workOrderPath(workOrderId)}/en-route`, { method: 'POST' }),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: ['work-orders'] }), invalidate()]),
  });
}

// Settings (admin only) ------------------------------------------------------------------------------

export function useMessageTemplates() {
  return useQuery({
    queryKey: messagingKeys.templates(),
    queryFn: ({ signal }) => apiFetch<MessageTemplateListResponse>('/api/admin/settings/message-templates', { signal }),
  });
}

/** The saved (or restored) template replaces the cached one, so the editor shows what is stored. */
function useTemplateMutation<Variables>(request: (variables: Variables) => Promise<MessageTemplateResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: ({ template }) =>
      queryClient.setQueryData<MessageTemplateListResponse>(messagingKeys.templates(), (list) =>
        list ? { ...list, templates: list.templates.map((known) => (known.type === template.type ? template : known)) } : list,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: messagingKeys.templates() }),
  });
}

export function useSaveMessageTemplate(type: MessageType) {
  return useTemplateMutation((body: MessageTemplateUpdate) => apiFetch<MessageTemplateResponse>(templatePath(type), { method: 'PUT', body }));
}

export function useRestoreMessageTemplate(type: MessageType) {
  return useTemplateMutation(() => apiFetch<MessageTemplateResponse>(templatePath(type), { method: 'DELETE' }));
}

export function useSendTestMessage(type: MessageType) {
  return useMutation({
    mutationFn: (body: TestMessageBody) => apiFetch<MessageTemplateTestResponse>(`${templatePath(type)}/test`, { method: 'POST', body }),
  });
}

export function useMessagingSettings() {
  return useQuery({
    queryKey: messagingKeys.settings(),
    queryFn: ({ signal }) => apiFetch<MessagingSettingsResponse>('/api/admin/settings/messaging', { signal }),
  });
}

export function useSaveMessagingSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: MessagingSettings) => apiFetch<MessagingSettingsResponse>('/api/admin/settings/messaging', { method: 'PUT', body: settings }),
    onSuccess: (answer) => queryClient.setQueryData(messagingKeys.settings(), answer),
  });
}

/** The server's words for a refusal; the fallback for a network failure or a server error. */
export function refusalText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.status !== 0 && error.status < 500 ? error.message : fallback;
}
