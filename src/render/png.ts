// boardPng: an SVG picture (from boardSvg) as PNG bytes, for mail attachments and downloads.
// resvg draws text with whatever fonts the system has; the SVG names common families and
// falls back to the generic `sans-serif`. With no fonts installed the text is simply left
// out and the rest of the picture still renders.
import { Resvg } from '@resvg/resvg-js'

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** Renders an SVG to PNG, at `width` pixels wide if given, else at the SVG's own size. */
export function boardPng(svg: string, width?: number): Buffer {
  const resvg = new Resvg(svg, {
    fitTo: width !== undefined && width > 0 ? { mode: 'width', value: Math.round(width) } : { mode: 'original' },
    background: '#ffffff',
    font: {
      loadSystemFonts: true,
      defaultFontFamily: 'DejaVu Sans',
      sansSerifFamily: 'DejaVu Sans',
    },
    logLevel: 'off',
  })
  return Buffer.from(resvg.render().asPng())
}
