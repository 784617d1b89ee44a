// Text from Berth made safe to print on a terminal: a name or value holding control characters
// (ESC sequences clear a screen, set a window title, or forge output) is shown escaped instead.

/** C0 controls, DEL and the C1 controls (a lone 0x9b is a CSI on many terminals). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
/** The same, less the line breaks and tabs that a value shown on lines of its own keeps. */
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

const escaped = (character: string): string =>
  character === '\u001b' ? '\\e' : `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` on one line with every control character escaped: `\e` for ESC, `\u0007` for BEL. */
export const visible = (text: string): string => text.replace(CONTROL, escaped);

/** `text` with its line breaks and tabs kept and every other control character escaped. */
export const visibleLines = (text: string): string => text.replace(CONTROL_BUT_LINES, escaped);

/** How many characters (code points, not UTF-16 units) a terminal is given. */
export const widthOf = (text: string): number => [...text].length;

/** `text` padded with spaces to `width` characters. */
export const padded = (text: string, width: number): string => text + ' '.repeat(Math.max(0, width - widthOf(text)));
