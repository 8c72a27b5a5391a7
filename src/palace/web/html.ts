/** htm bound to Preact: templates without a JSX build. Text interpolated into a template is a text node, never markup. */
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);
