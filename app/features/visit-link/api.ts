import type { OpenWindowsResponse } from '#shared/booking.ts';
import type { VisitPage, VisitReschedule } from '#shared/visit.ts';
import { apiFetch } from '#client/lib/api.ts';

// The customer's visit link (issue 21): server/modules/visits/visits.routes.ts, shared/visit.ts's contracts.

const visitApiPath = (token: string) => `/api/public/visits/${encodeURIComponent(token)}`;
export const customerVisitKey = (token: string) => ['customer-visit', token] as const;

export const fetchVisit = (token: string, signal?: AbortSignal) => apiFetch<VisitPage>(visitApiPath(token), { signal });
export const fetchVisitWindows = (token: string) => apiFetch<OpenWindowsResponse>(`${visitApiPath(token)}/windows`);
export const rescheduleVisit = (token: string, body: VisitReschedule) => apiFetch<VisitPage>(`${visitApiPath(token)}/reschedule`, { method: 'POST', body });
export const cancelVisit = (token: string) => apiFetch<VisitPage>(`${visitApiPath(token)}/cancel`, { method: 'POST', body: {} });
