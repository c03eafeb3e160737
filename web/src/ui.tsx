// Small pieces every part of the page uses: an error line shown next to what caused it, an action
// runner that puts a failure there, and a sender for controls that fire many values in a row
// (sliders, colour pickers) that keeps one request in flight and sends the latest value next.
import { useCallback, useRef, useState } from "preact/hooks";
import { ApiError } from "./api.js";

let ids = 0;
/** An id for aria-describedby, stable for the component's life. */
export function useId(prefix: string): string {
  const ref = useRef("");
  if (!ref.current) ref.current = `${prefix}-${++ids}`;
  return ref.current;
}

/** An error message in words, in a live region so screen readers announce it. */
export function Err({ id, msg }: { id?: string; msg: string | null }) {
  return (
    <p id={id} class="err" role="alert" hidden={!msg}>
      {msg}
    </p>
  );
}

export type Run = (f: () => Promise<unknown>) => Promise<boolean>;

/** [error, run, setError]: run(f) clears the error, awaits f and shows its failure as words. */
export function useAction(): [string | null, Run, (e: string | null) => void, ApiError | null] {
  const [error, setError] = useState<ApiError | null>(null);
  const [text, setText] = useState<string | null>(null);
  const run = useCallback<Run>(async (f) => {
    try {
      await f();
      setError(null);
      setText(null);
      return true;
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError(0, String((e as Error)?.message ?? e));
      setError(err);
      setText(err.message);
      return false;
    }
  }, []);
  return [text, run, setText, error];
}

/** Latest wins: send(v) now if idle, else remember v and send it when the request in flight ends. */
export function useLatest<T>(send: (v: T) => Promise<unknown>, run: Run): (v: T) => void {
  const s = useRef({ busy: false, has: false, next: undefined as T | undefined, send });
  s.current.send = send;
  return useCallback((v: T) => {
    const st = s.current;
    st.next = v;
    st.has = true;
    if (st.busy) return;
    st.busy = true;
    void (async () => {
      while (st.has) {
        st.has = false;
        await run(() => st.send(st.next as T));
      }
      st.busy = false;
    })();
  }, []);
}

/** A labelled range input whose accessible name is its label alone: the value it shows beside it
 * is its aria-valuetext (a screen reader hears "Brightness, 90%"; the name does not change as it
 * moves). */
export function Slider(props: {
  label: string;
  min: number;
  max: number;
  step?: number;
  value: number;
  shown: string;
  /** what a screen reader says for `shown`, when it differs ("1.5 times" for "1.50×") */
  spoken?: string;
  onInput(v: number): void;
}) {
  return (
    <label class="slider">
      <span>{props.label}</span>
      <input
        type="range"
        min={props.min}
        max={props.max}
        step={props.step}
        value={props.value}
        aria-label={props.label}
        aria-valuetext={props.spoken ?? props.shown}
        onInput={(e) => props.onInput(Number(e.currentTarget.value))}
      />
      <output aria-hidden="true">{props.shown}</output>
    </label>
  );
}

export const hexIn = (c: string) => (c || "#000000").toLowerCase();
export const hexOut = (c: string) => c.toUpperCase();
