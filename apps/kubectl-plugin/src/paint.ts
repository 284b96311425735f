import { styleText } from 'node:util';

type Style = Parameters<typeof styleText>[0];

/** Colours for human output, or none: on a terminal only, and never when NO_COLOR is set (no-color.org). */
export interface Paint {
  readonly manager: (name: string) => string;
  readonly dim: (s: string) => string;
  readonly bold: (s: string) => string;
  readonly warn: (s: string) => string;
}

const MANAGER_COLOURS = ['cyan', 'magenta', 'yellow', 'green', 'blue', 'red', 'cyanBright', 'magentaBright', 'yellowBright', 'greenBright'] as const;

/** The same manager gets the same colour in every answer. */
export function managerColour(name: string): (typeof MANAGER_COLOURS)[number] {
  let h = 0;
  for (const c of name) h = (h * 31 + c.codePointAt(0)!) >>> 0;
  return MANAGER_COLOURS[h % MANAGER_COLOURS.length]!;
}

export function colourWanted(isTTY: boolean, noColor: string | undefined): boolean {
  return isTTY && (noColor === undefined || noColor === '');
}

export function paint(enabled: boolean): Paint {
  // validateStream: false — whether to colour is decided here, once.
  const s = (style: Style) => (text: string) => (enabled ? styleText(style, text, { validateStream: false }) : text);
  return {
    manager: (name) => s(['bold', managerColour(name)])(name),
    dim: s('dim'),
    bold: s('bold'),
    warn: s('yellow'),
  };
}

export const NO_PAINT: Paint = paint(false);
