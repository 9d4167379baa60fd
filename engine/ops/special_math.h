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
 * - the Bessel functions J0, J1, Y0, Y1, I0, I1, K0, K1 (and scaled K),
 *   Airy's Ai and the spherical j0: Cephes (j0.c, j1.c, i0.c, i1.c, k0.c,
 *   k1.c, airy.c) as PyTorch's *_forward functions write them;
 * - igamma, igammac: SciPy's igam.c (Cephes, Temme's expansion, Boost's
 *   Lanczos sum), as PyTorch's calc_igamma.
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

/* ---- PyTorch 1.13's torch.special Bessel and Airy functions ----
 * Cephes' rational and Chebyshev approximations, as PyTorch's
 * ATen/native/Math.h (bessel_j0_forward, ...) writes them: j0.c, j1.c
 * (J0, J1, Y0, Y1: a rational function of x^2 up to 5, Hankel's
 * asymptotic form with rational P, Q of 25/x^2 above), i0.c, i1.c, k0.c,
 * k1.c (Chebyshev series on [0, 2] or [0, 8] and on the inverted interval
 * above), airy.c (the power series up to 2.09, asymptotic rational forms
 * beyond). The products-plus-sums are fused where PyTorch's AVX2 build
 * fuses them. */

/* sum c[i] z^(n-i), i = 0..n: Horner's loop as PyTorch writes it. */
static SF_T SF(sf_horner)(SF_T z, const SF_T *c, int n) {
    SF_T r = 0;
    for (int i = 0; i <= n; i++) r = SF_FMA(r, z, c[i]);
    return r;
}

/* Clenshaw's recurrence for a Chebyshev series at [y] (len terms):
 * PyTorch's inline form of chbevl in the modified Bessel functions. */
static SF_T SF(sf_cheb)(SF_T y, const SF_T *c, int len) {
    SF_T p = 0, q = 0, a = c[0];
    for (int i = 1; i < len; i++) {
        p = q;
        q = a;
        a = SF_FMA(y, q, -p) + c[i];
    }
    return (SF_T)0.5 * (a - p);
}

static const SF_T SF(j0_pp)[] = {7.96936729297347051624e-04, 8.28352392107440799803e-02,
                                 1.23953371646414299388e+00, 5.44725003058768775090e+00,
                                 8.74716500199817011941e+00, 5.30324038235394892183e+00,
                                 9.99999999999999997821e-01};
static const SF_T SF(j0_pq)[] = {9.24408810558863637013e-04, 8.56288474354474431428e-02,
                                 1.25352743901058953537e+00, 5.47097740330417105182e+00,
                                 8.76190883237069594232e+00, 5.30605288235394617618e+00,
                                 1.00000000000000000218e+00};
static const SF_T SF(j0_qp)[] = {-1.13663838898469149931e-02, -1.28252718670509318512e+00,
                                 -1.95539544257735972385e+01, -9.32060152123768231369e+01,
                                 -1.77681167980488050595e+02, -1.47077505154951170175e+02,
                                 -5.14105326766599330220e+01, -6.05014350600728481186e+00};
static const SF_T SF(j0_qq)[] = {6.43178256118178023184e+01, 8.56430025976980587198e+02,
                                 3.88240183605401609683e+03, 7.24046774195652478189e+03,
                                 5.93072701187316984827e+03, 2.06209331660327847417e+03,
                                 2.42005740240291393179e+02};
static const SF_T SF(j1_pp)[] = {7.62125616208173112003e-04, 7.31397056940917570436e-02,
                                 1.12719608129684925192e+00, 5.11207951146807644818e+00,
                                 8.42404590141772420927e+00, 5.21451598682361504063e+00,
                                 1.00000000000000000254e+00};
static const SF_T SF(j1_pq)[] = {5.71323128072548699714e-04, 6.88455908754495404082e-02,
                                 1.10514232634061696926e+00, 5.07386386128601488557e+00,
                                 8.39985554327604159757e+00, 5.20982848682361821619e+00,
                                 9.99999999999999997461e-01};
static const SF_T SF(j1_qp)[] = {5.10862594750176621635e-02, 4.98213872951233449420e+00,
                                 7.58238284132545283818e+01, 3.66779609360150777800e+02,
                                 7.10856304998926107277e+02, 5.97489612400613639965e+02,
                                 2.11688757100572135698e+02, 2.52070205858023719784e+01};
static const SF_T SF(j1_qq)[] = {7.42373277035675149943e+01, 1.05644886038262816351e+03,
                                 4.98641058337653607651e+03, 9.56231892404756170795e+03,
                                 7.99704160447350683650e+03, 2.82619278517639096600e+03,
                                 3.36093607810698293419e+02};

/* Hankel's asymptotic form for x > 5: sqrt(2 / (pi x)) (P cos(x - w)
 * - (5 / x) Q sin(x - w)) for J (sin and cos swapped, + for Y), P and Q
 * rational in [w2] = 25 / x^2 (j0, y0) or (5 / x)^2 (j1, y1). */
static SF_T SF(sf_hankel)(SF_T x, SF_T w2, SF_T phase, bool y, const SF_T *pp, const SF_T *pq,
                          const SF_T *qp, const SF_T *qq) {
    SF_T p = SF(sf_horner)(w2, pp, 6) / SF(sf_horner)(w2, pq, 6);
    SF_T q = SF(sf_horner)(w2, qp, 7) / SF(sf_horner)(w2, qq, 6);
    SF_T s = SF_SIN(x - phase), c = SF_COS(x - phase);
    SF_T b = (SF_T)5.0 / x * q * (y ? c : s);
    SF_T v = y ? SF_FMA(p, s, b) : SF_FMA(p, c, -b);
    return v * (SF_T)0.797884560802865355879892119868763737 / SF_SQRT(x);
}

static SF_T SF(sf_bessel_j0)(SF_T x) {
    static const SF_T rp[] = {-4.79443220978201773821e+09, 1.95617491946556577543e+12,
                              -2.49248344360967716204e+14, 9.70862251047306323952e+15};
    static const SF_T rq[] = {4.99563147152651017219e+02, 1.73785401676374683123e+05,
                              4.84409658339962045305e+07, 1.11855537045356834862e+10,
                              2.11277520115489217587e+12, 3.10518229857422583814e+14,
                              3.18121955943204943306e+16, 1.71086294081043136091e+18};
    if (x < 0) x = -x;
    if (x <= 5) {
        if (x < (SF_T)0.00001) return 1 - x * x / 4;
        SF_T z = x * x;
        SF_T r = SF(sf_horner)(z, rp, 3), s = SF(sf_horner)(z, rq, 7);
        return (z - (SF_T)5.78318596294678452118e+00) * (z - (SF_T)3.04712623436620863991e+01) * r /
               s;
    }
    return SF(sf_hankel)(x, (SF_T)25.0 / (x * x), (SF_T)0.785398163397448309615660845819875721,
                         false, SF(j0_pp), SF(j0_pq), SF(j0_qp), SF(j0_qq));
}

static SF_T SF(sf_bessel_j1)(SF_T x) {
    static const SF_T rp[] = {-8.99971225705559398224e+08, 4.52228297998194034323e+11,
                              -7.27494245221818276015e+13, 3.68295732863852883286e+15};
    static const SF_T rq[] = {6.20836478118054335476e+02, 2.56987256757748830383e+05,
                              8.35146791431949253037e+07, 2.21511595479792499675e+10,
                              4.74914122079991414898e+12, 7.84369607876235854894e+14,
                              8.95222336184627338078e+16, 5.32278620332680085395e+18};
    if (x < 0) return -SF(sf_bessel_j1)(-x);
    if (x <= 5) {
        SF_T z = x * x;
        SF_T r = SF(sf_horner)(z, rp, 3), s = SF(sf_horner)(z, rq, 7);
        return r / s * x * (z - (SF_T)1.46819706421238932572e+01) *
               (z - (SF_T)4.92184563216946036703e+01);
    }
    SF_T w = (SF_T)5.0 / x;
    return SF(sf_hankel)(x, w * w, (SF_T)2.356194490192344928846982537459627163, false, SF(j1_pp),
                         SF(j1_pq), SF(j1_qp), SF(j1_qq));
}

static SF_T SF(sf_bessel_y0)(SF_T x) {
    static const SF_T yp[] = {1.55924367855235737965e+04, -1.46639295903971606143e+07,
                              5.43526477051876500413e+09, -9.82136065717911466409e+11,
                              8.75906394395366999549e+13, -3.46628303384729719441e+15,
                              4.42733268572569800351e+16, -1.84950800436986690637e+16};
    static const SF_T yq[] = {1.04128353664259848412e+03, 6.26107330137134956842e+05,
                              2.68919633393814121987e+08, 8.64002487103935000337e+10,
                              2.02979612750105546709e+13, 3.17157752842975028269e+15,
                              2.50596256172653059228e+17};
    if (x <= 5) {
        if (x == 0) return -(SF_T)INFINITY;
        if (x < 0) return (SF_T)NAN;
        SF_T z = x * x;
        SF_T r = SF(sf_horner)(z, yp, 7) / SF(sf_horner)(z, yq, 6);
        return SF_FMA((SF_T)0.636619772367581343075535053490057448 * SF_LOG(x), SF(sf_bessel_j0)(x),
                      r);
    }
    return SF(sf_hankel)(x, (SF_T)25.0 / (x * x), (SF_T)0.785398163397448309615660845819875721,
                         true, SF(j0_pp), SF(j0_pq), SF(j0_qp), SF(j0_qq));
}

static SF_T SF(sf_bessel_y1)(SF_T x) {
    static const SF_T yp[] = {1.26320474790178026440e+09, -6.47355876379160291031e+11,
                              1.14509511541823727583e+14, -8.12770255501325109621e+15,
                              2.02439475713594898196e+17, -7.78877196265950026825e+17};
    static const SF_T yq[] = {5.94301592346128195359e+02, 2.35564092943068577943e+05,
                              7.34811944459721705660e+07, 1.87601316108706159478e+10,
                              3.88231277496238566008e+12, 6.20557727146953693363e+14,
                              6.87141087355300489866e+16, 3.97270608116560655612e+18};
    if (x <= 5) {
        if (x == 0) return -(SF_T)INFINITY;
        if (x <= 0) return (SF_T)NAN;
        SF_T z = x * x;
        SF_T r = SF(sf_horner)(z, yp, 5) / SF(sf_horner)(z, yq, 7);
        SF_T t = SF_FMA(SF(sf_bessel_j1)(x), SF_LOG(x), -(1 / x));
        return SF_FMA((SF_T)0.636619772367581343075535053490057448, t, x * r);
    }
    SF_T w = (SF_T)5.0 / x;
    return SF(sf_hankel)(x, w * w, (SF_T)2.356194490192344928846982537459627163, true, SF(j1_pp),
                         SF(j1_pq), SF(j1_qp), SF(j1_qq));
}

/* modified_bessel_i0/i1: Cephes' i0.c/i1.c with every coefficient (the
 * i0, i1 kernels above drop some in float; these do not). */
static SF_T SF(sf_mod_i0)(SF_T x) {
    SF_T ax = SF_FABS(x);
    if (ax <= 8) return SF_EXP(ax) * SF(sf_cheb)(ax / 2 - 2, SF(i0_a), 30);
    return SF_EXP(ax) * SF(sf_cheb)(32 / ax - 2, SF(i0_b), 25) / SF_SQRT(ax);
}

static SF_T SF(sf_mod_i1)(SF_T x) {
    SF_T ax = SF_FABS(x), out;
    if (ax <= 8)
        out = SF(sf_cheb)(ax / 2 - 2, SF(i1_a), 29) * ax * SF_EXP(ax);
    else
        out = SF_EXP(ax) * SF(sf_cheb)(32 / ax - 2, SF(i1_b), 25) / SF_SQRT(ax);
    return x < 0 ? -out : out;
}

static const SF_T SF(k0_a)[] = {1.37446543561352307156e-16, 4.25981614279661018399e-14,
                                1.03496952576338420167e-11, 1.90451637722020886025e-09,
                                2.53479107902614945675e-07, 2.28621210311945178607e-05,
                                1.26461541144692592338e-03, 3.59799365153615016266e-02,
                                3.44289899924628486886e-01, -5.35327393233902768720e-01};
static const SF_T SF(k0_b)[] = {
    5.30043377268626276149e-18,  -1.64758043015242134646e-17, 5.21039150503902756861e-17,
    -1.67823109680541210385e-16, 5.51205597852431940784e-16,  -1.84859337734377901440e-15,
    6.34007647740507060557e-15,  -2.22751332699166985548e-14, 8.03289077536357521100e-14,
    -2.98009692317273043925e-13, 1.14034058820847496303e-12,  -4.51459788337394416547e-12,
    1.85594911495471785253e-11,  -7.95748924447710747776e-11, 3.57739728140030116597e-10,
    -1.69753450938905987466e-09, 8.57403401741422608519e-09,  -4.66048989768794782956e-08,
    2.76681363944501510342e-07,  -1.83175552271911948767e-06, 1.39498137188764993662e-05,
    -1.28495495816278026384e-04, 1.56988388573005337491e-03,  -3.14481013119645005427e-02,
    2.44030308206595545468e+00};
static const SF_T SF(k1_a)[] = {
    -7.02386347938628759343e-18, -2.42744985051936593393e-15, -6.66690169419932900609e-13,
    -1.41148839263352776110e-10, -2.21338763073472585583e-08, -2.43340614156596823496e-06,
    -1.73028895751305206302e-04, -6.97572385963986435018e-03, -1.22611180822657148235e-01,
    -3.53155960776544875667e-01, 1.52530022733894777053e+00};
static const SF_T SF(k1_b)[] = {
    -5.75674448366501715755e-18, 1.79405087314755922667e-17,  -5.68946255844285935196e-17,
    1.83809354436663880070e-16,  -6.05704724837331885336e-16, 2.03870316562433424052e-15,
    -7.01983709041831346144e-15, 2.47715442448130437068e-14,  -8.97670518232499435011e-14,
    3.34841966607842919884e-13,  -1.28917396095102890680e-12, 5.13963967348173025100e-12,
    -2.12996783842756842877e-11, 9.21831518760500529508e-11,  -4.19035475934189648750e-10,
    2.01504975519703286596e-09,  -1.03457624656780970260e-08, 5.74108412545004946722e-08,
    -3.50196060308781257119e-07, 2.40648494783721712015e-06,  -1.93619797416608296024e-05,
    1.95215518471351631108e-04,  -2.85781685962277938680e-03, 1.03923736576817238437e-01,
    2.72062619048444266945e+00};

/* K0(x), or exp(x) K0(x) when [scaled]. PyTorch's unscaled K0 takes the
 * logarithm of 0.5 * x in double (a double literal in its source), so the
 * float form does too. */
static SF_T SF(sf_mod_k0)(SF_T x, bool scaled) {
    if (x == 0) return (SF_T)INFINITY;
    if (x < 0) return (SF_T)NAN;
    if (x <= 2) {
        SF_T h = SF(sf_cheb)(SF_FMA(x, x, -2), SF(k0_a), 10);
        if (scaled) return SF_FMA(-SF_LOG((SF_T)0.5 * x), SF(sf_mod_i0)(x), h) * SF_EXP(x);
        return (SF_T)fma(-log(0.5 * (double)x), (double)SF(sf_mod_i0)(x), (double)h);
    }
    SF_T c = SF(sf_cheb)((SF_T)8.0 / x - 2, SF(k0_b), 25);
    return scaled ? c / SF_SQRT(x) : SF_EXP(-x) * c / SF_SQRT(x);
}

static SF_T SF(sf_mod_k1)(SF_T x, bool scaled) {
    if (x == 0) return (SF_T)INFINITY;
    if (x < 0) return (SF_T)NAN;
    if (x <= 2) {
        SF_T h = SF(sf_cheb)(SF_FMA(x, x, -2), SF(k1_a), 11);
        SF_T v = SF_FMA(SF_LOG((SF_T)0.5 * x), SF(sf_mod_i1)(x), h / x);
        return scaled ? v * SF_EXP(x) : v;
    }
    SF_T c = SF(sf_cheb)((SF_T)8.0 / x - 2, SF(k1_b), 25);
    return scaled ? c / SF_SQRT(x) : SF_EXP(-x) * c / SF_SQRT(x);
}

static SF_T SF(sf_airy_ai)(SF_T x) {
    static const SF_T an[] = {3.46538101525629032477e-01, 1.20075952739645805542e+01,
                              7.62796053615234516538e+01, 1.68089224934630576269e+02,
                              1.59756391350164413639e+02, 7.05360906840444183113e+01,
                              1.40264691163389668864e+01, 9.99999999999999995305e-01};
    static const SF_T ad[] = {5.67594532638770212846e-01, 1.47562562584847203173e+01,
                              8.45138970141474626562e+01, 1.77318088145400459522e+02,
                              1.64234692871529701831e+02, 7.14778400825575695274e+01,
                              1.40959135607834029598e+01, 1.00000000000000000470e+00};
    static const SF_T afn[] = {
        -1.31696323418331795333e-01, -6.26456544431912369773e-01, -6.93158036036933542233e-01,
        -2.79779981545119124951e-01, -4.91900132609500318020e-02, -4.06265923594885404393e-03,
        -1.59276496239262096340e-04, -2.77649108155232920844e-06, -1.67787698489114633780e-08};
    static const SF_T afd[] = {
        1.33560420706553243746e+01, 3.26825032795224613948e+01, 2.67367040941499554804e+01,
        9.18707402907259625840e+00, 1.47529146771666414581e+00, 1.15687173795188044134e-01,
        4.40291641615211203805e-03, 7.54720348287414296618e-05, 4.51850092970580378464e-07};
    static const SF_T agn[] = {
        1.97339932091685679179e-02, 3.91103029615688277255e-01, 1.06579897599595591108e+00,
        9.39169229816650230044e-01, 3.51465656105547619242e-01, 6.33888919628925490927e-02,
        5.85804113048388458567e-03, 2.82851600836737019778e-04, 6.98793669997260967291e-06,
        8.11789239554389293311e-08, 3.41551784765923618484e-10};
    static const SF_T agd[] = {9.30892908077441974853e+00, 1.98352928718312140417e+01,
                               1.55646628932864612953e+01, 5.47686069422975497931e+00,
                               9.54293611618961883998e-01, 8.64580826352392193095e-02,
                               4.12656523824222607191e-03, 1.01259085116509135510e-04,
                               1.17166733214413521882e-06, 4.91834570062930015649e-09};
    const SF_T rsqrt_pi = (SF_T)5.64189583547756286948e-01;
    if (isinf(x)) return (SF_T)NAN;
    if (x > (SF_T)103.892) return 0;
    if (x < (SF_T)-2.09) {
        SF_T zeta = (SF_T)-2.0 * x * SF_SQRT(-x) / (SF_T)3.0;
        SF_T z = 1 / zeta, zz = z * z;
        SF_T f = zz * SF(sf_horner)(zz, afn, 8) / SF(sf_horner)(zz, afd, 8);
        SF_T g = z * SF(sf_horner)(zz, agn, 10) / SF(sf_horner)(zz, agd, 9);
        SF_T t = zeta + (SF_T)0.25 * (SF_T)M_PI;
        return rsqrt_pi / SF_SQRT(SF_SQRT(-x)) * SF_FMA(SF_SIN(t), 1 + f, -(SF_COS(t) * g));
    }
    SF_T ai = 0;
    bool asymptotic = false;
    if (x >= (SF_T)2.09) {
        asymptotic = true;
        SF_T zeta = (SF_T)2.0 * x * SF_SQRT(x) / (SF_T)3.0;
        SF_T r = SF(sf_horner)(1 / zeta, an, 7) / SF(sf_horner)(1 / zeta, ad, 7);
        ai = rsqrt_pi * r / ((SF_T)2.0 * SF_SQRT(SF_SQRT(x)) * SF_EXP(zeta));
        if (x > (SF_T)8.3203353) return ai;
    }
    /* the Maclaurin series f - c g of Ai */
    SF_T f = 1, g = x, k = 1, m = 1, n = x, t = 1, z = x * x * x;
    const SF_T eps = sizeof(SF_T) == 4 ? (SF_T)FLT_EPSILON : (SF_T)DBL_EPSILON;
    while (t > eps) {
        m *= z;
        k += 1;
        m /= k;
        n *= z;
        k += 1;
        n /= k;
        m /= k;
        f += m;
        k += 1;
        n /= k;
        g += n;
        t = SF_FABS(m / f);
    }
    if (asymptotic) return ai;
    return SF_FMA((SF_T)0.355028053887817239260, f, -((SF_T)0.258819403792806798405 * g));
}

static SF_T SF(sf_sph_j0)(SF_T x) {
    if (isinf(x)) return 0;
    if (SF_FABS(x) < (SF_T)0.5) {
        SF_T z = x * x;
        SF_T r = SF_FMA(z, (SF_T)1.0 / (SF_T)6227020800.0, (SF_T)-1.0 / (SF_T)39916800.0);
        r = SF_FMA(z, r, (SF_T)1.0 / (SF_T)362880.0);
        r = SF_FMA(z, r, (SF_T)-1.0 / (SF_T)5040.0);
        r = SF_FMA(z, r, (SF_T)1.0 / (SF_T)120.0);
        r = SF_FMA(z, r, (SF_T)-1.0 / (SF_T)6.0);
        return SF_FMA(z, r, 1);
    }
    return SF_SIN(x) / x;
}

/* ---- the regularized incomplete gamma functions igamma(a, x) = P(a, x)
 * and igammac(a, x) = Q(a, x) ----
 * SciPy's igam.c as PyTorch 1.13's Math.h (calc_igamma) carries it: Cephes'
 * power series (DLMF 8.11.4) and continued fraction (8.9.2), the series
 * for Q with care against cancellation (8.7.3), Temme's uniform asymptotic
 * expansion (8.12.3/8.12.4) when a is large and x near a, and Boost's
 * Lanczos approximation for the prefactor x^a e^-x / Gamma(a). Computed
 * in the input's type, as PyTorch's kernel does. */

#define SF_MACHEP                                                                                  \
    (sizeof(SF_T) == 4 ? (SF_T)5.9604644775390625E-8 : (SF_T)1.11022302462515654042E-16)

static SF_T SF(sf_ratevl)(SF_T x, const SF_T *num, int m, const SF_T *den, int n) {
    SF_T ax = SF_FABS(x), y, nv, dv;
    if (ax > 1) {
        /* a polynomial in 1 / x: the coefficients from the last */
        y = 1 / x;
        nv = num[m];
        for (int i = m - 1; i >= 0; i--) nv = SF_FMA(nv, y, num[i]);
        dv = den[n];
        for (int i = n - 1; i >= 0; i--) dv = SF_FMA(dv, y, den[i]);
        return (SF_T)pow(x, n - m) * nv / dv;
    }
    nv = num[0];
    for (int i = 1; i <= m; i++) nv = SF_FMA(nv, x, num[i]);
    dv = den[0];
    for (int i = 1; i <= n; i++) dv = SF_FMA(dv, x, den[i]);
    return nv / dv;
}

static SF_T SF(sf_lanczos_sum_expg_scaled)(SF_T x) {
    static const SF_T num[13] = {
        0.006061842346248906525783753964555936883222, 0.5098416655656676188125178644804694509993,
        19.51992788247617482847860966235652136208,    449.9445569063168119446858607650988409623,
        6955.999602515376140356310115515198987526,    75999.29304014542649875303443598909137092,
        601859.6171681098786670226533699352302507,    3481712.15498064590882071018964774556468,
        14605578.08768506808414169982791359218571,    43338889.32467613834773723740590533316085,
        86363131.28813859145546927288977868422342,    103794043.1163445451906271053616070238554,
        56906521.91347156388090791033559122686859};
    static const SF_T den[13] = {1.,         66.,       1925.,     32670.,     357423.,
                                 2637558.,   13339535., 45995730., 105258076., 150917976.,
                                 120543840., 39916800., 0.};
    return SF(sf_ratevl)(x, num, 12, den, 12);
}

/* x^a e^-x / Gamma(a) */
static SF_T SF(sf_igam_fac)(SF_T a, SF_T x) {
    const SF_T maxlog =
        sizeof(SF_T) == 4 ? (SF_T)88.72283905206835 : (SF_T)7.09782712893383996843E2;
    const SF_T lanczos_g = (SF_T)6.024680040776729583740234375;
    if ((double)SF_FABS(a - x) > 0.4 * (double)SF_FABS(a)) {
        SF_T ax = SF_FMA(a, SF_LOG(x), -x) - SF_LGAMMA(a);
        if (ax < -maxlog) return 0;
        return SF_EXP(ax);
    }
    SF_T fac = a + lanczos_g - (SF_T)0.5; /* exact either way */
    SF_T res = SF_SQRT(fac / (SF_T)2.718281828459045) / SF(sf_lanczos_sum_expg_scaled)(a);
    if (a < 200 && x < 200) {
        res *= SF_EXP(a - x) * SF_POW(x / fac, a);
    } else {
        /* PyTorch's double literals make this step double in float too */
        SF_T num = (SF_T)((double)(x - a - lanczos_g) + 0.5);
        SF_T numfac = num / fac;
        double e = (double)x * (0.5 - (double)lanczos_g) / (double)fac;
        SF_T l = SF_LOG1P(numfac) - numfac;
        double arg = sizeof(SF_T) == 4 ? (double)(a * l) + e : fma((double)a, (double)l, e);
        res = (SF_T)((double)res * exp(arg));
    }
    return res;
}

static SF_T SF(sf_igam_series)(SF_T a, SF_T x) {
    SF_T ax = SF(sf_igam_fac)(a, x);
    if (ax == 0) return 0;
    SF_T r = a, c = 1, ans = 1;
    for (int i = 0; i < 2000; i++) {
        r += 1;
        c *= x / r;
        ans += c;
        if (c <= SF_MACHEP * ans) break;
    }
    return ans * ax / a;
}

static SF_T SF(sf_igamc_series)(SF_T a, SF_T x) {
    SF_T fac = 1, sum = 0;
    for (int n = 1; n < 2000; n++) {
        fac *= -x / n;
        SF_T term = fac / (a + n);
        sum += term;
        if (SF_FABS(term) <= SF_MACHEP * SF_FABS(sum)) break;
    }
    SF_T logx = SF_LOG(x);
    SF_T term = -SF_EXPM1(SF_FMA(a, logx, -SF_LGAMMA(1 + a)));
    return SF_FMA(-SF_EXP(SF_FMA(a, logx, -SF_LGAMMA(a))), sum, term);
}

static SF_T SF(sf_igam_asymptotic)(SF_T a, SF_T x, bool igam) {
    int maxpow = 0;
    SF_T lambda = x / a, sigma = (x - a) / a, eta, absoldterm = (SF_T)INFINITY;
    SF_T etapow[25] = {1}, sum = 0, afac = 1;
    SF_T sgn = igam ? -1 : 1;
    if (lambda > 1)
        eta = SF_SQRT(-2 * (SF_LOG1P(sigma) - sigma));
    else if (lambda < 1)
        eta = -SF_SQRT(-2 * (SF_LOG1P(sigma) - sigma));
    else
        eta = 0;
    SF_T res = (SF_T)0.5 * SF_ERFC(sgn * eta * SF_SQRT(a / 2));
    for (int k = 0; k < 25; k++) {
        SF_T ck = (SF_T)sf_igam_d[k][0];
        for (int n = 1; n < 25; n++) {
            if (n > maxpow) {
                etapow[n] = eta * etapow[n - 1];
                maxpow += 1;
            }
            SF_T ckterm = (SF_T)sf_igam_d[k][n] * etapow[n];
            ck += ckterm;
            if (SF_FABS(ckterm) < SF_MACHEP * SF_FABS(ck)) break;
        }
        SF_T term = ck * afac, absterm = SF_FABS(term);
        if (absterm > absoldterm) break;
        sum += term;
        if (absterm < SF_MACHEP * SF_FABS(sum)) break;
        absoldterm = absterm;
        afac /= a;
    }
    /* in double, as PyTorch's double literals make it */
    double e = exp(-0.5 * (double)a * (double)eta * (double)eta);
    return (SF_T)((double)res +
                  (double)sgn * e * (double)sum / (double)SF_SQRT(2 * (SF_T)(float)M_PI * a));
}

static SF_T SF(sf_igamc_cfrac)(SF_T a, SF_T x) {
    const SF_T big = sizeof(SF_T) == 4 ? (SF_T)16777216. : (SF_T)4.503599627370496e15;
    const SF_T biginv =
        sizeof(SF_T) == 4 ? (SF_T)5.9604644775390625E-8 : (SF_T)2.22044604925031308085e-16;
    SF_T ax = SF(sf_igam_fac)(a, x);
    if (ax == 0) return 0;
    SF_T y = 1 - a, z = x + y + 1, c = 0, pkm2 = 1, qkm2 = x, pkm1 = x + 1, qkm1 = z * x;
    SF_T ans = pkm1 / qkm1, t;
    for (int i = 0; i < 2000; i++) {
        c += 1;
        y += 1;
        z += 2;
        SF_T yc = y * c;
        SF_T pk = SF_FMA(pkm1, z, -(pkm2 * yc)), qk = SF_FMA(qkm1, z, -(qkm2 * yc));
        if (qk != 0) {
            SF_T r = pk / qk;
            t = SF_FABS((ans - r) / r);
            ans = r;
        } else {
            t = 1;
        }
        pkm2 = pkm1;
        pkm1 = pk;
        qkm2 = qkm1;
        qkm1 = qk;
        if (SF_FABS(pk) > big) {
            pkm2 *= biginv;
            pkm1 *= biginv;
            qkm2 *= biginv;
            qkm1 *= biginv;
        }
        if (t <= SF_MACHEP) break;
    }
    return ans * ax;
}

/* Q(a, x): the boundaries as SciPy's, then the method by region. */
static SF_T SF(sf_igammac)(SF_T a, SF_T x) {
    if (x < 0 || a < 0) return (SF_T)NAN;
    if (a == 0) return x > 0 ? 0 : (SF_T)NAN;
    if (x == 0) return 1;
    if (isinf(a)) return isinf(x) ? (SF_T)NAN : 1;
    if (isinf(x)) return 0;
    SF_T r = SF_FABS(x - a) / a;
    if ((a > 20 && a < 200 && r < (SF_T)0.3) || (a > 200 && r < (SF_T)4.5 / SF_SQRT(a)))
        return SF(sf_igam_asymptotic)(a, x, false);
    if ((double)x > 1.1) {
        if (x < a) return 1 - SF(sf_igam_series)(a, x);
        return SF(sf_igamc_cfrac)(a, x);
    }
    if (x <= (SF_T)0.5) {
        if (-0.4 / (double)SF_LOG(x) < (double)a) return 1 - SF(sf_igam_series)(a, x);
        return SF(sf_igamc_series)(a, x);
    }
    if ((double)x * 1.1 < (double)a) return 1 - SF(sf_igam_series)(a, x);
    return SF(sf_igamc_series)(a, x);
}

/* P(a, x) */
static SF_T SF(sf_igamma)(SF_T a, SF_T x) {
    if (x < 0 || a < 0) return (SF_T)NAN;
    if (a == 0) return x > 0 ? 1 : (SF_T)NAN;
    if (x == 0) return 0;
    if (isinf(a)) return isinf(x) ? (SF_T)NAN : 0;
    if (isinf(x)) return 1;
    SF_T r = SF_FABS(x - a) / a;
    if ((a > 20 && a < 200 && r < (SF_T)0.3) || (a > 200 && r < (SF_T)4.5 / SF_SQRT(a)))
        return SF(sf_igam_asymptotic)(a, x, true);
    if (x > 1 && x > a) return 1 - SF(sf_igammac)(a, x);
    return SF(sf_igam_series)(a, x);
}

#undef SF_MACHEP

#undef SF_CAT2
#undef SF_CAT
#undef SF
