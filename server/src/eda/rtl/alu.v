// A parameterised ALU: WIDTH-bit operands, eight operations, zero/carry/overflow flags.
module alu #(
    parameter WIDTH = 8
) (
    input  wire [WIDTH-1:0] a,
    input  wire [WIDTH-1:0] b,
    input  wire [2:0]       op,
    output reg  [WIDTH-1:0] y,
    output wire             zero,
    output reg              carry,
    output reg              overflow
);
    localparam OP_ADD = 3'd0, OP_SUB = 3'd1, OP_AND = 3'd2, OP_OR = 3'd3,
               OP_XOR = 3'd4, OP_SHL = 3'd5, OP_SHR = 3'd6, OP_SLT = 3'd7;

    wire [WIDTH:0] sum  = {1'b0, a} + {1'b0, b};
    wire [WIDTH:0] diff = {1'b0, a} - {1'b0, b};

    always @(*) begin
        carry = 1'b0;
        overflow = 1'b0;
        case (op)
            OP_ADD: begin
                {carry, y} = sum;
                overflow = (a[WIDTH-1] == b[WIDTH-1]) && (y[WIDTH-1] != a[WIDTH-1]);
            end
            OP_SUB: begin
                {carry, y} = diff;
                overflow = (a[WIDTH-1] != b[WIDTH-1]) && (y[WIDTH-1] != a[WIDTH-1]);
            end
            OP_AND: y = a & b;
            OP_OR:  y = a | b;
            OP_XOR: y = a ^ b;
            OP_SHL: y = a << b[$clog2(WIDTH)-1:0];
            OP_SHR: y = a >> b[$clog2(WIDTH)-1:0];
            OP_SLT: y = {{(WIDTH-1){1'b0}}, $signed(a) < $signed(b)};
            default: y = {WIDTH{1'b0}};
        endcase
    end

    assign zero = (y == {WIDTH{1'b0}});
endmodule
