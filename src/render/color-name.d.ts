// color-name (the CSS Color Module's named colours as [r, g, b]) ships no types.
declare module 'color-name' {
  const colours: Readonly<Record<string, readonly [number, number, number]>>
  export default colours
}
