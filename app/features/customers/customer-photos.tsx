import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { customerMessages, customerPhotoMessages, photoUploadLimits, type CustomerPhoto } from '#shared/customer.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { useIsAdmin } from '#client/features/auth/index.ts';
import { apiErrorMessage, useDeleteCustomerPhoto, useUploadCustomerPhotos } from './api.ts';

/** Spec 000 section 9: the upload success message disappears after 3 seconds. */
export const uploadSuccessMs = 3000;

const photoAlt = (index: number) => `Equipment photo ${index + 1}`;

function EmptyPhotos() {
  return (
    <p className="rounded-md border border-dashed border-slate-300 bg-slate-50 px-4 py-8 text-center text-sm text-slate-600">
      {customerMessages.noPhotos}
    </p>
  );
}

/** View mode: thumbnails that open the display-size image in a viewer. */
export function PhotoGallery({ photos }: { photos: CustomerPhoto[] }) {
  const [openIndex, setOpenIndex] = useState<number>();
  if (photos.length === 0) return <EmptyPhotos />;
  const open = openIndex === undefined ? undefined : photos[openIndex];
  return (
    <>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        {photos.map((photo, index) => (
          <li key={photo.id}>
            <button
              type="button"
              onClick={() => setOpenIndex(index)}
              className="group block aspect-square w-full overflow-hidden rounded-md border border-slate-200 bg-slate-100"
            >
              <img
                src={photo.thumbnailUrl}
                alt={photoAlt(index)}
                loading="lazy"
                decoding="async"
                className="h-full w-full object-cover transition-transform group-hover:scale-105"
              />
            </button>
          </li>
        ))}
      </ul>
      {open && openIndex !== undefined ? (
        <PhotoViewer photos={photos} index={openIndex} onIndexChange={setOpenIndex} onClose={() => setOpenIndex(undefined)} />
      ) : null}
    </>
  );
}

function PhotoViewer({
  photos,
  index,
  onIndexChange,
  onClose,
}: {
  photos: CustomerPhoto[];
  index: number;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const photo = photos[index]!;
  const hasMany = photos.length > 1;
  return (
    <Dialog
      title={`${photoAlt(index)} of ${photos.length}`}
      onClose={onClose}
      initialFocusRef={closeRef}
      className="max-w-4xl"
    >
      <div
        className="mt-4"
        onKeyDown={(event) => {
          if (!hasMany) return;
          if (event.key === 'ArrowRight') onIndexChange((index + 1) % photos.length);
          if (event.key === 'ArrowLeft') onIndexChange((index - 1 + photos.length) % photos.length);
        }}
      >
        <img
          src={photo.url}
          alt={photoAlt(index)}
          width={photo.width ?? undefined}
          height={photo.height ?? undefined}
          className="mx-auto max-h-[65vh] w-auto rounded-md bg-slate-100 object-contain"
        />
        <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
          <a href={photo.url} target="_blank" rel="noopener noreferrer" className="text-sm font-semibold text-brand-700 underline underline-offset-2">
            Open full size<span className="sr-only"> (opens in a new tab)</span>
          </a>
          <div className="flex gap-2">
            {hasMany ? (
              <>
                <Button variant="secondary" size="sm" onClick={() => onIndexChange((index - 1 + photos.length) % photos.length)}>
                  Previous
                </Button>
                <Button variant="secondary" size="sm" onClick={() => onIndexChange((index + 1) % photos.length)}>
                  Next
                </Button>
              </>
            ) : null}
            <Button ref={closeRef} size="sm" onClick={onClose}>
              Close
            </Button>
          </div>
        </div>
      </div>
    </Dialog>
  );
}

/**
 * Edit mode: 'Add Photos' uploads at once (several images at a time) with a progress bar, then
 * 'Uploaded successfully' for 3 seconds or 'Upload failed: {message}'; each photo has a remove
 * button. Photos are stored as soon as they are added or removed, independent of Save Changes.
 */
export function PhotoManager({ customerId, photos }: { customerId: string; photos: CustomerPhoto[] }) {
  const inputId = useId();
  const hintId = useId();
  const upload = useUploadCustomerPhotos(customerId);
  const removal = useDeleteCustomerPhoto(customerId);
  // Removing a photo is for administrators only (decision 018-f): a dispatcher can add, not remove.
  const canRemove = useIsAdmin();
  const [successCount, setSuccessCount] = useState(0);
  const [errorMessage, setErrorMessage] = useState<string>();
  const [removingId, setRemovingId] = useState<string>();

  // Each success restarts the 3-second message.
  useEffect(() => {
    if (successCount === 0) return;
    const timer = window.setTimeout(() => setSuccessCount(0), uploadSuccessMs);
    return () => window.clearTimeout(timer);
  }, [successCount]);

  function onFilesChosen(event: ChangeEvent<HTMLInputElement>) {
    const files = Array.from(event.target.files ?? []);
    // Choosing the same file again must fire another change.
    event.target.value = '';
    if (files.length === 0) return;
    setErrorMessage(undefined);
    setSuccessCount(0);
    const tooLarge = files.find((file) => file.size > photoUploadLimits.maxBytes);
    if (tooLarge) {
      setErrorMessage(customerMessages.uploadFailed(customerPhotoMessages.tooLarge(tooLarge.name)));
      return;
    }
    upload.mutate(files, {
      onSuccess: () => setSuccessCount((count) => count + 1),
      onError: (error) => setErrorMessage(customerMessages.uploadFailed(apiErrorMessage(error) ?? customerMessages.unexpected)),
    });
  }

  function removePhoto(photo: CustomerPhoto, index: number) {
    setErrorMessage(undefined);
    setRemovingId(photo.id);
    removal.mutate(photo.id, {
      onError: (error) => setErrorMessage(`Photo ${index + 1} could not be removed: ${apiErrorMessage(error) ?? customerMessages.unexpected}`),
      onSettled: () => setRemovingId(undefined),
    });
  }

  const percent = upload.progress === undefined ? undefined : Math.round(upload.progress * 100);
  return (
    <div>
      <div className="flex flex-wrap items-center gap-3">
        <label
          htmlFor={inputId}
          className={buttonClass(
            'primary',
            'md',
            `cursor-pointer has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent-500 ${upload.isPending ? 'pointer-events-none opacity-60' : ''}`,
          )}
        >
          <CameraIcon />
          {upload.isPending ? 'Uploading...' : 'Add Photos'}
          <input
            id={inputId}
            type="file"
            accept="image/*"
            multiple
            disabled={upload.isPending}
            onChange={onFilesChosen}
            aria-describedby={hintId}
            className="sr-only"
          />
        </label>
        <p id={hintId} className="text-sm text-slate-600">
          JPEG, PNG, WebP or HEIC, up to {photoUploadLimits.maxBytes / 1024 / 1024} MB each. Photos are saved as soon as they are added or removed.
        </p>
      </div>

      {percent !== undefined ? (
        <div className="mt-3">
          <div
            role="progressbar"
            aria-label="Upload progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
          >
            <div className="h-full rounded-full bg-brand-700 transition-[width]" style={{ width: `${percent}%` }} />
          </div>
          <p className="mt-1 text-xs text-slate-600">{percent < 100 ? `Uploading… ${percent}%` : 'Processing photos…'}</p>
        </div>
      ) : null}

      <div role="status" aria-live="polite">
        {successCount > 0 ? (
          <p className="mt-3 inline-flex items-center gap-2 rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm font-medium text-green-900">
            <CheckIcon />
            {customerMessages.uploadSucceeded}
          </p>
        ) : null}
      </div>
      <div aria-live="assertive">
        {errorMessage ? <Alert className="mt-3">{errorMessage}</Alert> : null}
      </div>

      <div className="mt-4">
        {photos.length === 0 ? (
          <EmptyPhotos />
        ) : (
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
            {photos.map((photo, index) => (
              <li key={photo.id} className="relative overflow-hidden rounded-md border border-slate-200 bg-slate-100">
                <img src={photo.thumbnailUrl} alt={photoAlt(index)} loading="lazy" decoding="async" className="aspect-square w-full object-cover" />
                {canRemove ? (
                  <Button
                    variant="danger"
                    size="sm"
                    onClick={() => removePhoto(photo, index)}
                    disabled={removingId === photo.id}
                    aria-label={`Remove photo ${index + 1}`}
                    className="absolute top-2 right-2 bg-white/95"
                  >
                    <TrashIcon />
                    <span aria-hidden="true">{removingId === photo.id ? 'Removing...' : 'Remove'}</span>
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function CameraIcon() {
  return (
    <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round">
      <path d="M4 8h3l2-3h6l2 3h3v11H4z" />
      <circle cx="12" cy="13" r="3.5" />
    </svg>
  );
}

function CheckIcon() {
  return (
    <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round">
      <path d="m5 12 5 5 9-10" />
    </svg>
  );
}

function TrashIcon() {
  return (
    <svg aria-hidden="true" width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round">
      <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
    </svg>
  );
}
