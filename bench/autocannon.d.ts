// The few parts of autocannon's programmatic API the server benchmark uses (the package ships no types).
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string
      connections?: number
      duration?: number
      pipelining?: number
      requests?: { setupRequest?: (req: object) => object }[]
    }
    interface Histogram { average: number; p50: number; p90: number; p99: number; total: number }
    interface Result { requests: Histogram; latency: Histogram; non2xx: number; errors: number; timeouts: number }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>
  export default autocannon
}
