// The page in English and in Simplified Chinese. Every string a reader sees comes from one
// dictionary per language (i18n/en.js, i18n/zh.js, with the same keys): `t(key, params)`
// looks a key up and fills its {placeholders}, with numbers formatted for the language.
//
// The language is the reader's choice, stored in localStorage, or else the first of the
// browser's languages that the page speaks (zh* gives Chinese), or else English.

import EN from './i18n/en.js';
import ZH from './i18n/zh.js';

const DICTIONARIES = { en: EN, zh: ZH };
const KEY = 'dancecard.lang';

/** The tag of each language, for `<html lang>` and Intl. */
export const LANGS = { en: 'en', zh: 'zh-Hans' };

function stored() {
  try {
    const value = localStorage.getItem(KEY);
    return value in DICTIONARIES ? value : null;
  } catch {
    return null; // storage may be disabled
  }
}

function fromBrowser() {
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (base === 'zh') return 'zh';
    if (base === 'en') return 'en';
  }
  return 'en';
}

/** The language of the page: 'en' or 'zh'. */
export const lang = stored() ?? fromBrowser();

const numbers = new Intl.NumberFormat(LANGS[lang]);

/** A number written for the language of the page. */
export function num(n) {
  return typeof n === 'number' ? numbers.format(n) : String(n);
}

/** The string of `key`, with each {name} replaced by params[name] (numbers formatted). */
export function t(key, params) {
  const template = DICTIONARIES[lang][key] ?? EN[key];
  if (template === undefined) {
    console.error(`missing string: ${key}`);
    return key;
  }
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? num(params[name]) : whole));
}

/** "1 node", "3 nodes": the key's `.one` or `.other` form, with {n}. */
export function count(n, key) {
  return t(`${key}.${n === 1 ? 'one' : 'other'}`, { n });
}

/** A list in words: "1", "1 and 4", "1, 4 and 5" (or 1、4 和 5). */
export function list(items) {
  const parts = items.map(num);
  if (parts.length <= 1) return parts.join('');
  return t('list.and', { rest: parts.slice(0, -1).join(t('list.sep')), last: parts[parts.length - 1] });
}

/** Stores the reader's choice and shows the page again in that language. */
export function setLang(value) {
  if (!(value in DICTIONARIES) || value === lang) return;
  try {
    localStorage.setItem(KEY, value);
  } catch {
    // Without storage the choice lasts for this page only: the reload below loses it.
  }
  location.reload();
}

document.documentElement.lang = LANGS[lang];

/**
 * The string of `key` as a list of text and nodes: each {name} becomes nodes[name] (an
 * element, a string or an array of them), for sentences with markup (<kbd>, chips) inside.
 */
export function parts(key, nodes) {
  return t(key).split(/(\{\w+\})/).filter((p) => p !== '').map((p) => {
    const name = /^\{(\w+)\}$/.exec(p)?.[1];
    return name !== undefined && name in nodes ? nodes[name] : p;
  });
}
