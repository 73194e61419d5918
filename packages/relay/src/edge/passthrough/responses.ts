/** A text answer with `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`. */
export function textResponse(status: number, text: string, contentType: string): Response {
  return new Response(text, {
    status,
    headers: {
      'content-type': contentType,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
