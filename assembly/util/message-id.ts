// A failing site's message, passed to its sink as the message table's id (scripts/messages-transform.mjs).

/** `text`, the argument of a `@message-id` parameter, as the string it stands for. Without the
 * transform it is that string; with it, a literal message arrives as its table id and this decodes
 * it (the sink calls it once, at the one place that uses the text). @message-decode */
export function messageText(text: string): string {
  return text;
}
