// Self-checking testbench of the ALU: random operands against a reference model.
`timescale 1ns / 1ps
module alu_tb;
    parameter WIDTH = 8;
    reg  [WIDTH-1:0] a, b;
    reg  [2:0]       op;
    wire [WIDTH-1:0] y;
    wire zero, carry, overflow;
    reg  [WIDTH-1:0] expected;
    integer i, errors, checks;

    alu #(.WIDTH(WIDTH)) dut (.a(a), .b(b), .op(op), .y(y), .zero(zero), .carry(carry),
                              .overflow(overflow));

    always @(*) begin
        case (op)
            3'd0: expected = a + b;
            3'd1: expected = a - b;
            3'd2: expected = a & b;
            3'd3: expected = a | b;
            3'd4: expected = a ^ b;
            3'd5: expected = a << b[$clog2(WIDTH)-1:0];
            3'd6: expected = a >> b[$clog2(WIDTH)-1:0];
            default: expected = {{(WIDTH-1){1'b0}}, $signed(a) < $signed(b)};
        endcase
    end

    initial begin
        errors = 0;
        checks = 0;
        for (i = 0; i < 400; i = i + 1) begin
            a = $random;
            b = $random;
            op = i % 8;
            #1;
            checks = checks + 1;
            if (y !== expected || zero !== (y == 0)) begin
                errors = errors + 1;
                $display("FAIL op=%0d a=%h b=%h y=%h expected=%h", op, a, b, y, expected);
            end
        end
        $display("checks=%0d errors=%0d", checks, errors);
        $finish;
    end
endmodule
