/**
 * Colours and progress only where a person reads them: a terminal, unless NO_COLOR is set
 * (no-color.org), or anywhere when FORCE_COLOR asks for it. Piped output and CI logs stay plain,
 * so what scripts and tests read never carries escape codes.
 */
import picocolors from 'picocolors';
import yoctoSpinner from 'yocto-spinner';

/** picocolors' formatters (bold, red, ...), plain when colours are off. */
export type Colors = ReturnType<typeof picocolors.createColors>;

/** No colours, whatever the stream (text that goes into reports and files). */
export const PLAIN: Colors = picocolors.createColors(false);

type Env = Readonly<Record<string, string | undefined>>;

const isTerminal = (stream: NodeJS.WritableStream): boolean => (stream as { isTTY?: boolean }).isTTY === true;

/** Whether `stream` gets ANSI colours. */
export function colorEnabled(stream: NodeJS.WritableStream, env: Env): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '0') return true;
  return isTerminal(stream) && env['TERM'] !== 'dumb';
}

/** picocolors' functions, or ones that return the text unchanged. */
export function colorsFor(stream: NodeJS.WritableStream, env: Env): Colors {
  return picocolors.createColors(colorEnabled(stream, env));
}

export interface Progress {
  /** The line shown beside the spinner. */
  update(text: string): void;
  /** Removes the spinner line (before the results are printed). */
  done(): void;
}

const SILENT: Progress = { update: () => undefined, done: () => undefined };

/** A spinner on `stream` when it is a terminal (and not a dumb one), nothing otherwise. */
export function progressOn(stream: NodeJS.WritableStream, env: Env, text: string): Progress {
  if (!isTerminal(stream) || env['TERM'] === 'dumb') return SILENT;
  const spinner = yoctoSpinner({ text, stream: stream as NodeJS.WriteStream, handleSignals: false }).start();
  return {
    update: (next) => {
      spinner.text = next;
    },
    done: () => {
      if (spinner.isSpinning) spinner.clear().stop();
    },
  };
}
