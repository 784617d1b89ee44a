// Text that Berth writes into a line-based file (an htpasswd file, the proxy's YAML) must stay on
// its line: besides CR and LF, YAML 1.1 readers (the proxy's) break lines at U+0085, U+2028 and U+2029.

/** Whether `text` holds a control character or a Unicode line or paragraph separator. */
export const breaksALine = (text: string): boolean => /[\p{Cc}\p{Zl}\p{Zp}]/u.test(text);
