/** The first line of every rendered `channel_context`. */
export const CHANNEL_CONTEXT_HEADER = '[Recent channel messages]\n';
