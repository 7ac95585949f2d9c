*SENSE:Minimize
NAME          mixed
ROWS
 N  OBJ
 G  cover
 L  cap
 E  balance
 G  _C1
COLUMNS
    MARK      'MARKER'                 'INTORG'
    b         cover      1.000000000000e+00
    b         balance    1.000000000000e+00
    b         OBJ        3.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    n         cover      1.000000000000e+00
    n         cap        1.000000000000e+00
    n         OBJ        2.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    y         cover      1.000000000000e+00
    y         balance    1.000000000000e+00
    y         _C1        1.000000000000e+00
    y         OBJ       -1.000000000000e+00
    z         cap       -2.000000000000e+00
    z         balance    1.000000000000e+00
    z         _C1       -1.000000000000e+00
    z         OBJ        5.000000000000e-01
RHS
    RHS       cover      2.000000000000e+00
    RHS       cap        7.000000000000e+00
    RHS       balance    1.000000000000e+00
    RHS       _C1       -5.000000000000e+00
BOUNDS
 BV BND       b       
 LO BND       n          1.000000000000e+00
 UP BND       n          9.000000000000e+00
 FR BND       y       
 LO BND       z         -2.500000000000e+00
 UP BND       z          4.000000000000e+00
ENDATA
