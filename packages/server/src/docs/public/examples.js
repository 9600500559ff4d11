// Examples of a media type, shown as text so 64-bit integers keep every digit.

import { stringifyPretty } from './json.js';

/** The examples of a media type object: its `examples` map (refs resolved by the server), else its `example`. */
export function mediaExamples(media) {
  const found = Object.entries(media?.examples ?? {})
    .filter(([, example]) => example?.value !== undefined)
    .map(([key, example]) => ({ key, summary: example.summary ?? key, value: example.value }));
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

/** Every response example of an operation: status, media type, summary and text. */
export function responseExamples(responses) {
  return Object.entries(responses ?? {}).flatMap(([status, response]) =>
    Object.entries(response?.content ?? {}).flatMap(([mediaType, media]) =>
      mediaExamples(media).map(({ key, summary, value }) => ({
        id: `${status}-${key}`,
        status,
        summary,
        text: exampleText(value, mediaType),
      })),
    ),
  );
}
