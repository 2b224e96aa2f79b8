import { useEffect, useId, useRef } from 'react';
import SignaturePad from 'signature_pad';
import { Button } from '#client/components/ui/button.tsx';

/**
 * The customer signs on the screen (signature_pad on a canvas). `onChange` gets a PNG data URL
 * after each stroke, or null when cleared. The typed signer name beside it is the accessible way.
 */
export function SignatureField({ onChange, error }: { onChange: (png: string | null) => void; error?: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const onChangeRef = useRef(onChange);
  const labelId = useId();
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
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
        Customer signature <span className="font-normal text-slate-700">(sign with a finger in the box)</span>
      </p>
      <canvas
        ref={canvasRef}
        role="img"
        aria-labelledby={labelId}
        className="mt-1 block h-40 w-full touch-none rounded-md border-2 border-dashed border-slate-500 bg-white"
      />
      {error ? <p className="mt-1 text-sm text-red-700">{error}</p> : null}
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
