import { describe, expect, it } from 'vitest';
import { firstErrorLine, parseStages } from './trial-stages.ts';

describe("a failed stage's first error line", () => {
  const log = (...messages: string[]) => messages.map((message) => ({ message, datumId: 'd1' }));

  it('is the first line naming a file and line with an error, from Yosys, Icarus or Verilator', () => {
    expect(
      firstErrorLine(
        log(
          'elaborate counter4: 1 files',
          'rtl/alu.v:12: Warning: Identifier `x` is implicitly declared.',
          'rtl/counter4.v:16: ERROR: syntax error, unexpected TOK_ENDMODULE',
          'rtl/other.v:3: ERROR: later',
        ),
      ),
    ).toEqual({
      line: 'rtl/counter4.v:16: ERROR: syntax error, unexpected TOK_ENDMODULE',
      datumId: 'd1',
    });
    expect(firstErrorLine(log('  rtl/tb/c_tb.v:4: syntax error  '))?.line).toBe(
      'rtl/tb/c_tb.v:4: syntax error',
    );
    expect(
      firstErrorLine(log('%Error: rtl/c.v:3:5: syntax error, unexpected endmodule'))?.line,
    ).toBe('%Error: rtl/c.v:3:5: syntax error, unexpected endmodule');
  });

  it('falls back to any line speaking of an error, and is null when none does', () => {
    expect(firstErrorLine(log('starting', 'error: parameter width must be an integer'))?.line).toBe(
      'error: parameter width must be an integer',
    );
    expect(firstErrorLine(log('all fine', '0 errors'))).toBeNull();
  });

  it('reads the stored stages, and none from text that is not a list', () => {
    expect(parseStages('[{"name":"a"}]')).toEqual([{ name: 'a' }]);
    expect(parseStages('{}')).toEqual([]);
    expect(parseStages('not json')).toEqual([]);
  });
});
