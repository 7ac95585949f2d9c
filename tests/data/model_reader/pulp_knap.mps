*SENSE:Maximize
NAME          knap
ROWS
 N  OBJ
 L  weight
 G  some
COLUMNS
    MARK      'MARKER'                 'INTORG'
    w0        some       1.000000000000e+00
    w0        OBJ        1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    w1        some       1.000000000000e+00
    w1        OBJ       -1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_0       weight     2.000000000000e+00
    x_0       some       1.000000000000e+00
    x_0       OBJ        5.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_1       weight     3.000000000000e+00
    x_1       some       1.000000000000e+00
    x_1       OBJ        4.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_2       weight     1.000000000000e+00
    x_2       OBJ        3.000000000000e+00
    MARK      'MARKER'                 'INTEND'
RHS
    RHS       weight     5.000000000000e+00
    RHS       some       1.000000000000e+00
BOUNDS
 BV BND       w0      
 BV BND       w1      
 LO BND       x_0        0.000000000000e+00
 LO BND       x_1        0.000000000000e+00
 LO BND       x_2        0.000000000000e+00
ENDATA
