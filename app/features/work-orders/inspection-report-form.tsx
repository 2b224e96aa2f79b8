import { useState } from 'react';
import { workOrderMessages } from '#shared/work-order.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { apiErrorMessage } from '#client/features/customers/index.ts';
import { useAddInspectionReport } from './api.ts';
import { DetailCard, type Notice } from './detail-card.tsx';
import { InspectionReportFields, type InspectionReportInput } from '#client/components/inspection-report-fields.tsx';

/** "Record Inspection": a form, opened on demand, for the visit's readings and the checks done. */
export function InspectionReportForm({ workOrderId }: { workOrderId: string }) {
  const [isOpen, setIsOpen] = useState(false);
  const [message, setMessage] = useState<Notice>();
  const addReport = useAddInspectionReport(workOrderId);

  async function onSave(report: InspectionReportInput): Promise<boolean> {
    setMessage(undefined);
    try {
      await addReport.mutateAsync(report);
      setIsOpen(false);
      setMessage({ tone: 'success', text: 'Inspection report saved.' });
      return true;
    } catch (failure) {
      setMessage({ tone: 'error', text: `Error saving inspection report: ${apiErrorMessage(failure) ?? workOrderMessages.unexpected}` });
      return false;
    }
  }

  return (
    <DetailCard
      title="Record Inspection"
      actions={
        <Button variant="secondary" size="sm" aria-expanded={isOpen} onClick={() => setIsOpen((open) => !open)}>
          {isOpen ? 'Close' : 'Record Inspection Report'}
        </Button>
      }
    >
      <div aria-live="polite">{message ? <Alert tone={message.tone}>{message.text}</Alert> : null}</div>
      {isOpen ? (
        <InspectionReportFields onSave={onSave} isSaving={addReport.isPending} />
      ) : (
        <p className="text-sm text-slate-600">Readings and checks from the visit.</p>
      )}
    </DetailCard>
  );
}
