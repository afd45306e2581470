/** Which review values (`{_gateway.diff}` …) a route's template names: only those are fetched. */
import { REVIEW_VALUES, type ReviewValue } from './hooks.js';

const NAMED = new RegExp(`\\{_gateway\\.(${REVIEW_VALUES.join('|')})\\}`, 'g');

/**
 * The review values `template` names.
 *
 * @example reviewValuesIn('Review:\n{_gateway.diff}') // Set { 'diff' }
 */
export function reviewValuesIn(template: string | undefined): ReadonlySet<ReviewValue> {
  const found = new Set<ReviewValue>();
  for (const match of (template ?? '').matchAll(NAMED)) found.add(match[1] as ReviewValue);
  return found;
}
