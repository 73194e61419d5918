import { describe, expect, it } from 'vitest';
import { attachmentContentDisposition } from './media.js';

/**
 * The extension the gateway's media client derives from a download's `Content-Disposition`: the text
 * after the first `filename=`, stripped of surrounding whitespace and `"`, then the suffix after its last
 * `/`-separated component's last dot (Python's `Path(name).suffix`). Restated from its behaviour.
 */
function gatewaySuffix(header: string): string {
  const at = header.indexOf('filename=');
  if (at === -1) return '';
  const name = header
    .slice(at + 'filename='.length)
    .trim()
    .replace(/^"+|"+$/g, '');
  const last = name.slice(name.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot <= 0 || dot === last.length - 1 ? '' : last.slice(dot);
}

describe('attachmentContentDisposition', () => {
  it('is a bare attachment without a name', () => {
    expect(attachmentContentDisposition(undefined)).toBe('attachment');
    expect(attachmentContentDisposition('')).toBe('attachment');
  });

  it('quotes a plain ASCII name', () => {
    expect(attachmentContentDisposition('cat photo.jpg')).toBe('attachment; filename="cat photo.jpg"');
  });

  it('adds an RFC 8187 filename* and an ASCII fallback for other names', () => {
    expect(attachmentContentDisposition('café.png')).toBe(
      `attachment; filename="caf_.png"; filename*=UTF-8''caf%C3%A9.png`,
    );
    expect(attachmentContentDisposition('日本 (1).pdf')).toBe(
      `attachment; filename="__ (1).pdf"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%20%281%29.pdf`,
    );
    expect(attachmentContentDisposition('a"b\\c%d.txt')).toBe(
      `attachment; filename="a_b_c_d.txt"; filename*=UTF-8''a%22b%5Cc%25d.txt`,
    );
    expect(attachmentContentDisposition('😀.gif')).toBe(
      `attachment; filename="_.gif"; filename*=UTF-8''%F0%9F%98%80.gif`,
    );
  });

  it('keeps the extension the gateway reads', () => {
    for (const name of ['cat.jpg', 'café.png', '日本 (1).pdf', 'a"b.txt', 'x;y.webp', 'résumé.tar.gz']) {
      expect(gatewaySuffix(attachmentContentDisposition(name))).toBe(name.slice(name.lastIndexOf('.')));
    }
  });
});
