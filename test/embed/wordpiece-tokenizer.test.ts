import { describe, expect, it } from 'vitest';
import { WordPieceTokenizer } from '../../src/embed/index.js';
import { BadInputError } from '../../src/util/errors.js';
import { TEST_VOCAB } from './onnx-test-model.js';

const vocabText = `${TEST_VOCAB.join('\n')}\n`;
const id = (token: string) => TEST_VOCAB.indexOf(token);

describe('WordPieceTokenizer', () => {
  const tok = WordPieceTokenizer.fromVocabText(vocabText);

  it('lower-cases, strips accents, splits punctuation and CJK', () => {
    expect(tok.basicTokens('Hello, Wörld!  player_id')).toEqual(['hello', ',', 'world', '!', 'player', '_', 'id']);
    expect(tok.basicTokens('数据表\u0000x')).toEqual(['数', '据', '表', 'x']);
    const cased = WordPieceTokenizer.fromVocabText(vocabText, { lowercase: false });
    expect(cased.basicTokens('Player')).toEqual(['Player']);
  });

  it('matches longest pieces with ## continuations and maps unknown words to [UNK]', () => {
    expect(tok.wordPiece('goals')).toEqual([id('goal'), id('##s')]);
    expect(tok.wordPiece('goalx')).toEqual([id('[UNK]')]);
    expect(tok.encode('The player goals.')).toEqual([
      id('[CLS]'), id('the'), id('player'), id('goal'), id('##s'), id('.'), id('[SEP]'),
    ]);
    expect(tok.encode('')).toEqual([id('[CLS]'), id('[SEP]')]);
  });

  it('truncates to maxLength including [CLS] and [SEP]', () => {
    const short = WordPieceTokenizer.fromVocabText(vocabText, { maxLength: 5 });
    expect(short.encode('a b c d e')).toEqual([id('[CLS]'), id('a'), id('b'), id('c'), id('[SEP]')]);
    expect(tok.encode('a '.repeat(500))).toHaveLength(128);
  });

  it('requires the special tokens', () => {
    expect(() => WordPieceTokenizer.fromVocabText('a\nb\n', {}, '/models/x/vocab.txt')).toThrow(BadInputError);
    expect(() => WordPieceTokenizer.fromVocabText('a\nb\n', {}, '/models/x/vocab.txt')).toThrow(/\/models\/x\/vocab.txt.*\[CLS\]/);
  });
});
