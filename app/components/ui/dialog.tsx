import { useEffect, useId, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';
import { Button } from './button.tsx';

/**
 * A modal dialog on the native <dialog> element: showModal() makes the rest of the page inert,
 * traps focus and gives the backdrop; Escape and a click on the backdrop call onClose, and the
 * focus returns to the control that opened it. Mount it only while it is open.
 */
export function Dialog({
  title,
  description,
  onClose,
  initialFocusRef,
  className = '',
  children,
}: {
  title: string;
  /** Visible text that describes the dialog (announced with the title). */
  description?: ReactNode;
  onClose: () => void;
  initialFocusRef?: RefObject<HTMLElement | null>;
  className?: string;
  children: ReactNode;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  // A layout effect: its clean-up runs before React removes the element, so the dialog is closed
  // properly and the focus goes back to the control that opened it.
  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    initialFocusRef?.current?.focus();
    const onCancel = (event: Event) => {
      // Escape: React state decides whether the dialog stays, not the browser.
      event.preventDefault();
      onCloseRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, [initialFocusRef]);

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      onKeyDown={(event) => {
        // Escape closes through React state (the 'cancel' listener covers other close requests).
        if (event.key === 'Escape' && !event.defaultPrevented) {
          event.preventDefault();
          onClose();
        }
      }}
      className={`m-auto w-[calc(100%-2rem)] max-w-md rounded-lg bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/60 ${className}`}
    >
      <div className="p-6">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {description ? (
          <div id={descriptionId} className="mt-2 text-slate-700">
            {description}
          </div>
        ) : null}
        {children}
      </div>
    </dialog>
  );
}

/** "Are you sure?": Cancel has the focus, so Enter or Escape never destroys anything by accident. */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  pendingLabel,
  isPending = false,
  confirmVariant = 'destructive',
  onConfirm,
  onCancel,
}: {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  isPending?: boolean;
  /** Solid red by default; 'primary' for a confirmation that destroys nothing (sending a quote). */
  confirmVariant?: 'destructive' | 'primary';
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog title={title} description={message} onClose={() => (isPending ? undefined : onCancel())} initialFocusRef={cancelRef}>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button ref={cancelRef} variant="secondary" onClick={onCancel} disabled={isPending}>
          Cancel
        </Button>
        <Button variant={confirmVariant} onClick={onConfirm} disabled={isPending}>
          {isPending && pendingLabel ? pendingLabel : confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
