// Examples of a media type, shown as text so 64-bit integers keep every digit.

import { h } from './dom.js';
import { stringifyPretty } from './json.js';

/** The examples of a media type object: its `examples` map (refs followed), else its `example`. */
export function mediaExamples(spec, media) {
  const found = Object.entries(media?.examples ?? {})
    .map(([key, example]) => ({ key, example: example ?? {} }))
    .filter(({ example }) => example.value !== undefined)
    .map(({ key, example }) => ({ key, summary: example.summary ?? key, value: example.value }));
  if (found.length === 0 && media?.example !== undefined) {
    found.push({ key: 'example', summary: 'Example', value: media.example });
  }
  return found;
}

/** An example value as the text of its media type: JSON written losslessly, other text as it is. */
export function exampleText(value, mediaType) {
  if (typeof value === 'string' && !/json/i.test(mediaType)) return value;
  return stringifyPretty(value);
}

export function renderExamples(spec, media, mediaType) {
  const examples = mediaExamples(spec, media);
  if (examples.length === 0) return null;
  return h(
    'div',
    { class: 'examples' },
    examples.map(({ summary, value }) =>
      h(
        'figure',
        { class: 'example' },
        h('figcaption', {}, h('span', { class: 'label' }, 'Example'), summary),
        h('pre', {}, h('code', {}, exampleText(value, mediaType))),
      ),
    ),
  );
}
