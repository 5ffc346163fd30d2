/**
 * Question tokens and stop words of the lexical baselines. Identifiers are split and plurals
 * folded by src/text (`splitIdentifier`, `foldPlural`).
 */

/** English function words (NLTK's list plus question words), dropped from questions. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself ' +
    'it its itself they them their theirs themselves what which who whom this that these those am is are was were be ' +
    'been being have has had having do does did doing a an the and but if or because as until while of at by for with ' +
    'about against between into through during before after above below to from up down in out on off over under again ' +
    'further then once here there when where why how all any both each few more most other some such no nor not only own ' +
    'same so than too very s t can will just don should now d ll m o re ve y ain aren couldn didn doesn hadn hasn haven ' +
    'isn ma mightn mustn needn shan shouldn wasn weren won wouldn also whose us many much list show give find return tell'
  ).split(' '),
);

/** Lake file stems carry an 8-hex-digit uniqueness hash (`singer_1a2b3c4d`): not part of the name. */
export function visibleTableName(name: string): string {
  return name.replace(/_[0-9a-f]{8}$/, '');
}

/** Lower-cased word tokens of a question without stop words. */
export function questionTokens(question: string): string[] {
  return (question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => !STOP_WORDS.has(t));
}
