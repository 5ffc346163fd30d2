/**
 * Every lower-case spelling one edit away from `word` (a letter dropped, added or changed, or two
 * neighbouring letters swapped: Damerau's four kinds of typing slip), the word itself excluded.
 * About 54 x its length strings, so a caller looks each up in its own index rather than scanning
 * a vocabulary for near words.
 */
export function oneEditSpellings(word: string): string[] {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const out = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    const [head, tail] = [word.slice(0, i), word.slice(i)];
    if (tail.length > 0) out.add(head + tail.slice(1));
    if (tail.length > 1) out.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const c of letters) {
      out.add(head + c + tail);
      if (tail.length > 0) out.add(head + c + tail.slice(1));
    }
  }
  out.delete(word);
  return [...out];
}
