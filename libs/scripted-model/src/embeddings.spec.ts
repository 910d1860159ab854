import { bagOfWordsEmbedding, EMBEDDING_DIMENSIONS, embeddingsResponse } from './embeddings';

describe('scripted /v1/embeddings', () => {
  it('should answer one unit vector per input, in order, texts sharing words pointing alike', () => {
    const answer = embeddingsResponse({ model: 'm', input: ['tabs and spaces', 'spaces and tabs', 'deploy on friday'] }, bagOfWordsEmbedding);
    if (!answer.ok) throw new Error(answer.message);
    const data = (answer.body as { data: Array<{ index: number; embedding: number[] }> }).data;
    expect(data.map((d) => d.index)).toEqual([0, 1, 2]);
    expect(data[0].embedding).toHaveLength(EMBEDDING_DIMENSIONS);
    expect(Math.hypot(...data[0].embedding)).toBeCloseTo(1);
    expect(data[0].embedding).toEqual(data[1].embedding);
    expect(data[0].embedding).not.toEqual(data[2].embedding);
  });

  it('should refuse a missing model or input', () => {
    expect(embeddingsResponse({ input: 'x' }, bagOfWordsEmbedding)).toMatchObject({ ok: false });
    expect(embeddingsResponse({ model: 'm', input: [] }, bagOfWordsEmbedding)).toMatchObject({ ok: false });
    expect(embeddingsResponse({ model: 'm', input: [1] }, bagOfWordsEmbedding)).toMatchObject({ ok: false });
  });
});
