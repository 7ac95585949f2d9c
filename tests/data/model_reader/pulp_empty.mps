*SENSE:Minimize
NAME          empty_objective
ROWS
 N  OBJ
 L  one
COLUMNS
    __dummy   OBJ        0.000000000000e+00
    MARK      'MARKER'                 'INTORG'
    f         one        1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    g         one        1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
RHS
    RHS       one        1.000000000000e+00
BOUNDS
 FX BND       __dummy    0.000000000000e+00
 FX BND       f          1.000000000000e+00
 BV BND       g       
ENDATA
