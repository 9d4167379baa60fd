/* The special functions' scalar code, written once and included twice by
 * ops_special.c: with SF_T float (suffix _f) and with SF_T double (_d).
 *
 * Where the algorithms come from (the same sources PyTorch 1.13's
 * ATen/native/Math.h uses, so results agree to the last bit or a few ulps):
 * - digamma: Cephes psi (recurrence up to x >= 10, then the asymptotic
 *   series with Bernoulli coefficients; reflection for x < 0);
 * - trigamma: recurrence to x + 6, then the asymptotic series;
 * - polygamma(n >= 2): (-1)^(n+1) n! zeta(n + 1, x), with Cephes' Hurwitz
 *   zeta (Euler-Maclaurin summation after 9 terms, evaluated in double);
 * - erfinv: Giles-style rational first guess (the Pavlis/Matlab 2.0 central
 *   and tail coefficients), then two Newton steps on erf;
 * - i0, i0e, i1, i1e: Cephes' Chebyshev expansions on [0, 8] and (8, inf)
 *   (i1 and i1e in float use only the last 17 and 7 terms, as PyTorch does);
 * - ndtri: Cephes' rational approximations on three intervals;
 * - erfcx: exp(x^2) erfc(x) in long double below x = 26, Laplace's
 *   continued fraction above (nndb's own; PyTorch uses the Faddeeva
 *   package's Chebyshev table: they agree to about an ulp);
 * - bessel_j0, bessel_j1: Cephes' rational approximations (j0.c, j1.c).
 * PyTorch's CPU kernels are compiled with fused multiply-add contraction
 * on AVX2, so the products-plus-sums below are written as fma where that
 * compiler fuses them, which gives the same roundings. */

#define SF_CAT2(a, b) a##b
#define SF_CAT(a, b)  SF_CAT2(a, b)
#define SF(name)      SF_CAT(name, SF_SUFFIX)

static SF_T SF(polevl)(SF_T x, const SF_T *a, int len) {
    SF_T r = 0;
    for (int i = 0; i <= len; i++) r = SF_FMA(r, x, a[i]);
    return r;
}

static SF_T SF(chbevl)(SF_T x, const SF_T *a, int len) {
    SF_T b0 = a[0], b1 = 0, b2 = 0;
    for (int i = 1; i < len; i++) {
        b2 = b1;
        b1 = b0;
        b0 = SF_FMA(x, b1, -b2) + a[i];
    }
    return (SF_T)0.5 * (b0 - b2);
}

static SF_T SF(sf_digamma)(SF_T x) {
    static const SF_T psi_10 = (SF_T)2.25175258906672110764;
    static const SF_T A[] = {(SF_T)8.33333333333333333333E-2, (SF_T)-2.10927960927960927961E-2,
                             (SF_T)7.57575757575757575758E-3, (SF_T)-4.16666666666666666667E-3,
                             (SF_T)3.96825396825396825397E-3, (SF_T)-8.33333333333333333333E-3,
                             (SF_T)8.33333333333333333333E-2};
    if (x == 0) return copysign((SF_T)INFINITY, -x);
    if (x < 0) {
        if (x == SF_TRUNC(x)) return (SF_T)NAN;
        double q, r = modf((double)x, &q);
        /* reflection: psi(1 - x) - pi / tan(pi r), r the fraction of x */
        SF_T t = (SF_T)(M_PI / tan(M_PI * r));
        return SF(sf_digamma)(1 - x) - t;
    }
    SF_T result = 0;
    while (x < 10) {
        result -= 1 / x;
        x += 1;
    }
    if (x == 10) return result + psi_10;
    SF_T y = 0;
    if (x < (SF_T)1.0e17) {
        SF_T z = 1 / (x * x);
        y = z * SF(polevl)(z, A, 6);
    }
    return result + SF_LOG(x) - ((SF_T)0.5 / x) - y;
}

static SF_T SF(sf_trigamma)(SF_T x) {
    SF_T sign = 1, result = 0;
    if (x < (SF_T)0.5) {
        sign = -1;
        SF_T s = SF_SIN((SF_T)M_PI * x);
        result -= ((SF_T)M_PI * (SF_T)M_PI) / (s * s);
        x = 1 - x;
    }
    for (int i = 0; i < 6; i++) {
        result += 1 / (x * x);
        x += 1;
    }
    const SF_T ixx = 1 / (x * x);
    SF_T inner = SF_FMA(-ixx, (SF_T)1 / (SF_T)42, (SF_T)1 / (SF_T)30);
    inner = SF_FMA(-ixx, inner, (SF_T)1 / (SF_T)6);
    result += SF_FMA(ixx, inner, 1 + 1 / (2 * x)) / x;
    return sign * result;
}

static SF_T SF(sf_erfinv)(SF_T y) {
    const SF_T a[4] = {(SF_T)0.886226899, (SF_T)-1.645349621, (SF_T)0.914624893,
                       (SF_T)-0.140543331};
    const SF_T b[4] = {(SF_T)-2.118377725, (SF_T)1.442710462, (SF_T)-0.329097515,
                       (SF_T)0.012229801};
    const SF_T c[4] = {(SF_T)-1.970840454, (SF_T)-1.624906493, (SF_T)3.429567803,
                       (SF_T)1.641345311};
    const SF_T d[2] = {(SF_T)3.543889200, (SF_T)1.637067800};
    SF_T ya = SF_FABS(y), x;
    if (ya > 1) return (SF_T)NAN;
    if (ya == 1) return copysign((SF_T)INFINITY, y);
    if (ya <= (SF_T)0.7) {
        SF_T z = y * y;
        SF_T num = SF_FMA(SF_FMA(SF_FMA(a[3], z, a[2]), z, a[1]), z, a[0]);
        SF_T dem = SF_FMA(SF_FMA(SF_FMA(SF_FMA(b[3], z, b[2]), z, b[1]), z, b[0]), z, 1);
        x = y * num / dem;
    } else {
        SF_T z = SF_SQRT(-SF_LOG((1 - ya) / 2));
        SF_T num = SF_FMA(SF_FMA(SF_FMA(c[3], z, c[2]), z, c[1]), z, c[0]);
        SF_T dem = SF_FMA(SF_FMA(d[1], z, d[0]), z, 1);
        x = copysign(num, y) / dem;
    }
    const SF_T two_over_sqrt_pi = (SF_T)2 * (SF_T)0.564189583547756286948;
    x = x - (SF_ERF(x) - y) / (two_over_sqrt_pi * SF_EXP(-x * x));
    x = x - (SF_ERF(x) - y) / (two_over_sqrt_pi * SF_EXP(-x * x));
    return x;
}

static const SF_T SF(i0_a)[30] = {
    -4.41534164647933937950E-18, 3.33079451882223809783E-17,  -2.43127984654795469359E-16,
    1.71539128555513303061E-15,  -1.16853328779934516808E-14, 7.67618549860493561688E-14,
    -4.85644678311192946090E-13, 2.95505266312963983461E-12,  -1.72682629144155570723E-11,
    9.67580903537323691224E-11,  -5.18979560163526290666E-10, 2.65982372468238665035E-9,
    -1.30002500998624804212E-8,  6.04699502254191894932E-8,   -2.67079385394061173391E-7,
    1.11738753912010371815E-6,   -4.41673835845875056359E-6,  1.64484480707288970893E-5,
    -5.75419501008210370398E-5,  1.88502885095841655729E-4,   -5.76375574538582365885E-4,
    1.63947561694133579842E-3,   -4.32430999505057594430E-3,  1.05464603945949983183E-2,
    -2.37374148058994688156E-2,  4.93052842396707084878E-2,   -9.49010970480476444210E-2,
    1.71620901522208775349E-1,   -3.04682672343198398683E-1,  6.76795274409476084995E-1};
static const SF_T SF(i0_b)[25] = {
    -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
    3.46122286769746109310E-17,  -2.82762398051658348494E-16, -3.42548561967721913462E-16,
    1.77256013305652638360E-15,  3.81168066935262242075E-15,  -9.55484669882830764870E-15,
    -4.15056934728722208663E-14, 1.54008621752140982691E-14,  3.85277838274214270114E-13,
    7.18012445138366623367E-13,  -1.79417853150680611778E-12, -1.32158118404477131188E-11,
    -3.14991652796324136454E-11, 1.18891471078464383424E-11,  4.94060238822496958910E-10,
    3.39623202570838634515E-9,   2.26666899049817806459E-8,   2.04891858946906374183E-7,
    2.89137052083475648297E-6,   6.88975834691682398426E-5,   3.36911647825569408990E-3,
    8.04490411014108831608E-1};
static const SF_T SF(i1_a)[29] = {
    2.77791411276104639959E-18,  -2.11142121435816608115E-17, 1.55363195773620046921E-16,
    -1.10559694773538630805E-15, 7.60068429473540693410E-15,  -5.04218550472791168711E-14,
    3.22379336594557470981E-13,  -1.98397439776494371520E-12, 1.17361862988909016308E-11,
    -6.66348972350202774223E-11, 3.62559028155211703701E-10,  -1.88724975172282928790E-9,
    9.38153738649577178388E-9,   -4.44505912879632808065E-8,  2.00329475355213526229E-7,
    -8.56872026469545474066E-7,  3.47025130813767847674E-6,   -1.32731636560394358279E-5,
    4.78156510755005422638E-5,   -1.61760815825896745588E-4,  5.12285956168575772895E-4,
    -1.51357245063125314899E-3,  4.15642294431288815669E-3,   -1.05640848946261981558E-2,
    2.47264490306265168283E-2,   -5.29459812080949914269E-2,  1.02643658689847095384E-1,
    -1.76416518357834055153E-1,  2.52587186443633654823E-1};
static const SF_T SF(i1_b)[25] = {
    7.51729631084210481353E-18,  4.41434832307170791151E-18,  -4.65030536848935832153E-17,
    -3.20952592199342395980E-17, 2.96262899764595013876E-16,  3.30820231092092828324E-16,
    -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
    4.27244001671195135429E-14,  -2.10154184277266431302E-14, -4.08355111109219731823E-13,
    -7.19855177624590851209E-13, 2.03562854414708950722E-12,  1.41258074366137813316E-11,
    3.25260358301548823856E-11,  -1.89749581235054123450E-11, -5.58974346219658380687E-10,
    -3.83538038596423702205E-9,  -2.63146884688951950684E-8,  -2.51223623787020892529E-7,
    -3.88256480887769039346E-6,  -1.10588938762623716291E-4,  -9.76109749136146840777E-3,
    7.78576235018280120474E-1};

/* [scaled]: the exponentially scaled forms i0e and i1e. */
static SF_T SF(sf_i0)(SF_T x0, bool scaled) {
    SF_T x = SF_FABS(x0);
    if (x <= 8) {
        SF_T c = SF(chbevl)(x / 2 - 2, SF(i0_a), 30);
        return scaled ? c : SF_EXP(x) * c;
    }
    SF_T c = SF(chbevl)(32 / x - 2, SF(i0_b), 25);
    return scaled ? c / SF_SQRT(x) : SF_EXP(x) * c / SF_SQRT(x);
}

static SF_T SF(sf_i1)(SF_T x0, bool scaled) {
    SF_T x = SF_FABS(x0), out;
    if (x <= 8) {
        SF_T c = SF(chbevl)(x / 2 - 2, SF(i1_a) + SF_I1_SKIP_A, 29 - SF_I1_SKIP_A);
        out = scaled ? c * x : SF_EXP(x) * x * c;
    } else {
        SF_T c = SF(chbevl)(32 / x - 2, SF(i1_b) + SF_I1_SKIP_B, 25 - SF_I1_SKIP_B);
        out = scaled ? c / SF_SQRT(x) : (SF_EXP(x) * c) / SF_SQRT(x);
    }
    return x0 < 0 ? -out : out;
}

static SF_T SF(sf_ndtri)(SF_T y0) {
    static const SF_T s2pi = (SF_T)2.50662827463100050242E0;
    static const SF_T P0[5] = {-5.99633501014107895267E1, 9.80010754185999661536E1,
                               -5.66762857469070293439E1, 1.39312609387279679503E1,
                               -1.23916583867381258016E0};
    static const SF_T Q0[9] = {
        1.00000000000000000000E0,  1.95448858338141759834E0,  4.67627912898881538453E0,
        8.63602421390890590575E1,  -2.25462687854119370527E2, 2.00260212380060660359E2,
        -8.20372256168333339912E1, 1.59056225126211695515E1,  -1.18331621121330003142E0};
    static const SF_T P1[9] = {
        4.05544892305962419923E0,   3.15251094599893866154E1,   5.71628192246421288162E1,
        4.40805073893200834700E1,   1.46849561928858024014E1,   2.18663306850790267539E0,
        -1.40256079171354495875E-1, -3.50424626827848203418E-2, -8.57456785154685413611E-4};
    static const SF_T Q1[9] = {
        1.00000000000000000000E0,   1.57799883256466749731E1,   4.53907635128879210584E1,
        4.13172038254672030440E1,   1.50425385692907503408E1,   2.50464946208309415979E0,
        -1.42182922854787788574E-1, -3.80806407691578277194E-2, -9.33259480895457427372E-4};
    static const SF_T P2[9] = {
        3.23774891776946035970E0,  6.91522889068984211695E0,  3.93881025292474443415E0,
        1.33303460815807542389E0,  2.01485389549179081538E-1, 1.23716634817820021358E-2,
        3.01581553508235416007E-4, 2.65806974686737550832E-6, 6.23974539184983293730E-9};
    static const SF_T Q2[9] = {
        1.00000000000000000000E0,  6.02427039364742014255E0,  3.67983563856160859403E0,
        1.37702099489081330271E0,  2.16236993594496635890E-1, 1.34204006088543189037E-2,
        3.28014464682127739104E-4, 2.89247864745380683936E-6, 6.79019408009981274425E-9};
    if (y0 == 0) return -(SF_T)INFINITY;
    if (y0 == 1) return (SF_T)INFINITY;
    if (y0 < 0 || y0 > 1) return (SF_T)NAN;
    bool code = true;
    SF_T y = y0;
    const SF_T e2 = (SF_T)0.13533528323661269189; /* exp(-2) */
    if (y > 1 - e2) {
        y = 1 - y;
        code = false;
    }
    if (y > e2) {
        y = y - (SF_T)0.5;
        const SF_T y2 = y * y;
        SF_T x = SF_FMA(y, y2 * SF(polevl)(y2, P0, 4) / SF(polevl)(y2, Q0, 8), y);
        return x * s2pi;
    }
    SF_T x = SF_SQRT((SF_T)-2.0 * SF_LOG(y));
    const SF_T x0 = x - SF_LOG(x) / x;
    const SF_T z = 1 / x;
    SF_T x1 = x < 8 ? z * SF(polevl)(z, P1, 8) / SF(polevl)(z, Q1, 8)
                    : z * SF(polevl)(z, P2, 8) / SF(polevl)(z, Q2, 8);
    x = x0 - x1;
    return code ? -x : x;
}

#undef SF_CAT2
#undef SF_CAT
#undef SF
