import { useEffect, useId, useRef } from 'react';
import SignaturePad from 'signature_pad';
import { Button } from '#client/components/ui/button.tsx';

/**
 * A signature drawn on the screen (signature_pad on a canvas), used by the technician app's
 * completion form and the customer's quote page. `onChange` gets a PNG data URL after each
 * stroke, or null when cleared. A typed name beside it is always the accessible way to sign.
 */
export function SignatureField({
  label,
  hint,
  onChange,
  error,
}: {
  label: string;
  /** Said after the label, in lighter type: how to sign. */
  hint?: string;
  onChange: (png: string | null) => void;
  error?: string;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const onChangeRef = useRef(onChange);
  const labelId = useId();
  const errorId = `${labelId}-error`;
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const canvas = canvasRef.current;
    // No 2D canvas (an unusual browser, or a DOM without one): the box stays empty; the typed name signs.
    if (!canvas?.getContext('2d')) return;
    const pad = new SignaturePad(canvas, { penColor: '#0f172a', backgroundColor: 'rgba(0,0,0,0)' });
    padRef.current = pad;
    const resize = () => {
      // Sharp on a dense screen, but at most 2x: the PNG stays small (the server takes up to ~300 KB).
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      const data = pad.toData();
      canvas.width = canvas.offsetWidth * ratio;
      canvas.height = canvas.offsetHeight * ratio;
      canvas.getContext('2d')?.scale(ratio, ratio);
      pad.clear();
      pad.fromData(data);
    };
    resize();
    const onEnd = () => onChangeRef.current(pad.isEmpty() ? null : pad.toDataURL('image/png'));
    pad.addEventListener('endStroke', onEnd);
    window.addEventListener('resize', resize);
    return () => {
      pad.removeEventListener('endStroke', onEnd);
      window.removeEventListener('resize', resize);
      pad.off();
    };
  }, []);

  return (
    <div>
      <p id={labelId} className="block text-sm font-medium text-slate-800">
        {label}
        {hint ? <span className="font-normal text-slate-700"> {hint}</span> : null}
      </p>
      <canvas
        ref={canvasRef}
        role="img"
        aria-labelledby={labelId}
        aria-describedby={error ? errorId : undefined}
        className="mt-1 block h-40 w-full touch-none rounded-md border-2 border-dashed border-slate-500 bg-white"
      />
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <Button
        variant="secondary"
        className="mt-2 min-h-12"
        onClick={() => {
          padRef.current?.clear();
          onChange(null);
        }}
      >
        Clear signature
      </Button>
    </div>
  );
}
