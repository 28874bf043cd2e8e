// Self-checking testbench of the FIFO: fill it, drain it, check order and flags.
`timescale 1ns / 1ps
module fifo_tb;
    parameter WIDTH = 8;
    parameter DEPTH = 16;
    reg clk = 0, rst = 1, push = 0, pop = 0;
    reg  [WIDTH-1:0] din = 0;
    wire [WIDTH-1:0] dout;
    wire full, empty;
    wire [$clog2(DEPTH):0] count;
    integer i, errors, checks;

    fifo #(.WIDTH(WIDTH), .DEPTH(DEPTH)) dut (.clk(clk), .rst(rst), .push(push), .din(din),
        .pop(pop), .dout(dout), .full(full), .empty(empty), .count(count));

    always #5 clk = ~clk;

    initial begin
        errors = 0;
        checks = 0;
        @(posedge clk); @(posedge clk); rst = 0;
        for (i = 0; i < DEPTH; i = i + 1) begin
            push = 1; din = i * 3 + 1;
            @(posedge clk); #1;
        end
        push = 0;
        checks = checks + 1;
        if (!full) begin errors = errors + 1; $display("FAIL not full after %0d pushes", DEPTH); end
        for (i = 0; i < DEPTH; i = i + 1) begin
            checks = checks + 1;
            if (dout !== ((i * 3 + 1) & {WIDTH{1'b1}})) begin
                errors = errors + 1;
                $display("FAIL word %0d: %h", i, dout);
            end
            pop = 1;
            @(posedge clk); #1;
        end
        pop = 0;
        checks = checks + 1;
        if (!empty) begin errors = errors + 1; $display("FAIL not empty after draining"); end
        $display("checks=%0d errors=%0d", checks, errors);
        $finish;
    end
endmodule
