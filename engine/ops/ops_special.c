/* torch.special and the special functions of torch: digamma, polygamma,
 * lgamma, erfinv, erfc, erfcx, the modified Bessel functions i0, i0e, i1,
 * i1e, the normal distribution's ndtr, ndtri and log_ndtr, sinc, entr,
 * exp2 and logit, torch.special's Bessel and Airy functions (unary, one node
 * kind NN_OP_SPECIAL with the function in p.i[0]), and zeta, xlogy, xlog1py,
 * the incomplete gamma functions igamma/igammac, and the float remainder and
 * floor and truncating divisions (binary, NN_OP_SPECIAL2).
 *
 * The scalar code is special_math.h (its header says where each algorithm
 * comes from); the transcendental functions PyTorch takes from SLEEF come
 * from nn_sleef. Forward and backward are elementwise kernels in the input's
 * float type whose every step rounds as the tensor ops of PyTorch's
 * formulas (derivatives.yaml) round, so values and gradients are PyTorch's
 * bits, not only close to them. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "nn_ops_impl.h"
#include "nn_sleef.h"

/* Temme's coefficients d[k][n] of the uniform asymptotic expansion of the
 * incomplete gamma functions (DLMF 8.12), as SciPy's igam.h tabulates them
 * (generated with mpmath by its _precomp/gammainc.py) and PyTorch copies. */
static const double sf_igam_d[25][25] = {
    {-3.3333333333333333e-1,  8.3333333333333333e-2,   -1.4814814814814815e-2,
     1.1574074074074074e-3,   3.527336860670194e-4,    -1.7875514403292181e-4,
     3.9192631785224378e-5,   -2.1854485106799922e-6,  -1.85406221071516e-6,
     8.296711340953086e-7,    -1.7665952736826079e-7,  6.7078535434014986e-9,
     1.0261809784240308e-8,   -4.3820360184533532e-9,  9.1476995822367902e-10,
     -2.551419399494625e-11,  -5.8307721325504251e-11, 2.4361948020667416e-11,
     -5.0276692801141756e-12, 1.1004392031956135e-13,  3.3717632624009854e-13,
     -1.3923887224181621e-13, 2.8534893807047443e-14,  -5.1391118342425726e-16,
     -1.9752288294349443e-15},
    {-1.8518518518518519e-3,  -3.4722222222222222e-3,  2.6455026455026455e-3,
     -9.9022633744855967e-4,  2.0576131687242798e-4,   -4.0187757201646091e-7,
     -1.8098550334489978e-5,  7.6491609160811101e-6,   -1.6120900894563446e-6,
     4.6471278028074343e-9,   1.378633446915721e-7,    -5.752545603517705e-8,
     1.1951628599778147e-8,   -1.7543241719747648e-11, -1.0091543710600413e-9,
     4.1627929918425826e-10,  -8.5639070264929806e-11, 6.0672151016047586e-14,
     7.1624989648114854e-12,  -2.9331866437714371e-12, 5.9966963656836887e-13,
     -2.1671786527323314e-16, -4.9783399723692616e-14, 2.0291628823713425e-14,
     -4.13125571381061e-15},
    {4.1335978835978836e-3,  -2.6813271604938272e-3,  7.7160493827160494e-4,
     2.0093878600823045e-6,  -1.0736653226365161e-4,  5.2923448829120125e-5,
     -1.2760635188618728e-5, 3.4235787340961381e-8,   1.3721957309062933e-6,
     -6.298992138380055e-7,  1.4280614206064242e-7,   -2.0477098421990866e-10,
     -1.4092529910867521e-8, 6.228974084922022e-9,    -1.3670488396617113e-9,
     9.4283561590146782e-13, 1.2872252400089318e-10,  -5.5645956134363321e-11,
     1.1975935546366981e-11, -4.1689782251838635e-15, -1.0940640427884594e-12,
     4.6622399463901357e-13, -9.905105763906906e-14,  1.8931876768373515e-17,
     8.8592218725911273e-15},
    {6.4943415637860082e-4,   2.2947209362139918e-4,  -4.6918949439525571e-4,
     2.6772063206283885e-4,   -7.5618016718839764e-5, -2.3965051138672967e-7,
     1.1082654115347302e-5,   -5.6749528269915966e-6, 1.4230900732435884e-6,
     -2.7861080291528142e-11, -1.6958404091930277e-7, 8.0994649053880824e-8,
     -1.9111168485973654e-8,  2.3928620439808118e-12, 2.0620131815488798e-9,
     -9.4604966618551322e-10, 2.1541049775774908e-10, -1.388823336813903e-14,
     -2.1894761681963939e-11, 9.7909989511716851e-12, -2.1782191880180962e-12,
     6.2088195734079014e-17,  2.126978363279737e-13,  -9.3446887915174333e-14,
     2.0453671226782849e-14},
    {-8.618882909167117e-4,   7.8403922172006663e-4,   -2.9907248030319018e-4,
     -1.4638452578843418e-6,  6.6414982154651222e-5,   -3.9683650471794347e-5,
     1.1375726970678419e-5,   2.5074972262375328e-10,  -1.6954149536558306e-6,
     8.9075075322053097e-7,   -2.2929348340008049e-7,  2.956794137544049e-11,
     2.8865829742708784e-8,   -1.4189739437803219e-8,  3.4463580499464897e-9,
     -2.3024517174528067e-13, -3.9409233028046405e-10, 1.8602338968504502e-10,
     -4.356323005056618e-11,  1.2786001016296231e-15,  4.6792750266579195e-12,
     -2.1492464706134829e-12, 4.9088156148096522e-13,  -6.3385914848915603e-18,
     -5.0453320690800944e-14},
    {-3.3679855336635815e-4, -6.9728137583658578e-5,  2.7727532449593921e-4,
     -1.9932570516188848e-4, 6.7977804779372078e-5,   1.419062920643967e-7,
     -1.3594048189768693e-5, 8.0184702563342015e-6,   -2.2914811765080952e-6,
     -3.252473551298454e-10, 3.4652846491085265e-7,   -1.8447187191171343e-7,
     4.8240967037894181e-8,  -1.7989466721743515e-14, -6.3061945000135234e-9,
     3.1624176287745679e-9,  -7.8409242536974293e-10, 5.1926791652540407e-15,
     9.3589442423067836e-11, -4.5134262161632782e-11, 1.0799129993116827e-11,
     -3.661886712685252e-17, -1.210902069055155e-12,  5.6807435849905643e-13,
     -1.3249659916340829e-13},
    {5.3130793646399222e-4,  -5.9216643735369388e-4,  2.7087820967180448e-4,
     7.9023532326603279e-7,  -8.1539693675619688e-5,  5.6116827531062497e-5,
     -1.8329116582843376e-5, -3.0796134506033048e-9,  3.4651553688036091e-6,
     -2.0291327396058604e-6, 5.7887928631490037e-7,   2.338630673826657e-13,
     -8.8286007463304835e-8, 4.7435958880408128e-8,   -1.2545415020710382e-8,
     8.6496488580102925e-14, 1.6846058979264063e-9,   -8.5754928235775947e-10,
     2.1598224929232125e-10, -7.6132305204761539e-16, -2.6639822008536144e-11,
     1.3065700536611057e-11, -3.1799163902367977e-12, 4.7109761213674315e-18,
     3.6902800842763467e-13},
    {3.4436760689237767e-4,   5.1717909082605922e-5,   -3.3493161081142236e-4,
     2.812695154763237e-4,    -1.0976582244684731e-4,  -1.2741009095484485e-7,
     2.7744451511563644e-5,   -1.8263488805711333e-5,  5.7876949497350524e-6,
     4.9387589339362704e-10,  -1.0595367014026043e-6,  6.1667143761104075e-7,
     -1.7562973359060462e-7,  -1.2974473287015439e-12, 2.695423606288966e-8,
     -1.4578352908731271e-8,  3.887645959386175e-9,    -3.8810022510194121e-17,
     -5.3279941738772867e-10, 2.7437977643314845e-10,  -6.9957960920705679e-11,
     2.5899863874868481e-17,  8.8566890996696381e-12,  -4.403168815871311e-12,
     1.0865561947091654e-12},
    {-6.5262391859530942e-4,  8.3949872067208728e-4,  -4.3829709854172101e-4,
     -6.969091458420552e-7,   1.6644846642067548e-4,  -1.2783517679769219e-4,
     4.6299532636913043e-5,   4.5579098679227077e-9,  -1.0595271125805195e-5,
     6.7833429048651666e-6,   -2.1075476666258804e-6, -1.7213731432817145e-11,
     3.7735877416110979e-7,   -2.1867506700122867e-7, 6.2202288040189269e-8,
     6.5977038267330006e-16,  -9.5903864974256858e-9, 5.2132144922808078e-9,
     -1.3991589583935709e-9,  5.382058999060575e-16,  1.9484714275467745e-10,
     -1.0127287556389682e-10, 2.6077347197254926e-11, -5.0904186999932993e-18,
     -3.3721464474854592e-12},
    {-5.9676129019274625e-4,  -7.2048954160200106e-5,  6.7823088376673284e-4,
     -6.4014752602627585e-4,  2.7750107634328704e-4,   1.8197008380465151e-7,
     -8.4795071170685032e-5,  6.105192082501531e-5,    -2.1073920183404862e-5,
     -8.8585890141255994e-10, 4.5284535953805377e-6,   -2.8427815022504408e-6,
     8.7082341778646412e-7,   3.6886101871706965e-12,  -1.5344695190702061e-7,
     8.862466778790695e-8,    -2.5184812301826817e-8,  -1.0225912098215092e-14,
     3.8969470758154777e-9,   -2.1267304792235635e-9,  5.7370135528051385e-10,
     -1.887749850169741e-19,  -8.0931538694657866e-11, 4.2382723283449199e-11,
     -1.1002224534207726e-11},
    {1.3324454494800656e-3,   -1.9144384985654775e-3,  1.1089369134596637e-3,
     9.932404122642299e-7,    -5.0874501293093199e-4,  4.2735056665392884e-4,
     -1.6858853767910799e-4,  -8.1301893922784998e-9,  4.5284402370562147e-5,
     -3.127053674781734e-5,   1.044986828530338e-5,    4.8435226265680926e-11,
     -2.1482565873456258e-6,  1.329369701097492e-6,    -4.0295693092101029e-7,
     -1.7567877666323291e-13, 7.0145043163668257e-8,   -4.040787734999483e-8,
     1.1474026743371963e-8,   3.9642746853563325e-18,  -1.7804938269892714e-9,
     9.7480262548731646e-10,  -2.6405338676507616e-10, 5.794875163403742e-18,
     3.7647749553543836e-11},
    {1.579727660730835e-3,   1.6251626278391582e-4,   -2.0633421035543276e-3,
     2.1389686185689098e-3,  -1.0108559391263003e-3,  -3.9912705529919201e-7,
     3.6235025084764691e-4,  -2.8143901463712154e-4,  1.0449513336495887e-4,
     2.1211418491830297e-9,  -2.5779417251947842e-5,  1.7281818956040463e-5,
     -5.6413773872904282e-6, -1.1024320105776174e-11, 1.1223224418895175e-6,
     -6.8693396379526735e-7, 2.0653236975414887e-7,   4.6714772409838506e-14,
     -3.5609886164949055e-8, 2.0470855345905963e-8,   -5.8091738633283358e-9,
     -1.332821287582869e-16, 9.0354604391335133e-10,  -4.9598782517330834e-10,
     1.3481607129399749e-10},
    {-4.0725121195140166e-3, 6.4033628338080698e-3,  -4.0410161081676618e-3,
     -2.183732802866233e-6,  2.1740441801254639e-3,  -1.9700440518418892e-3,
     8.3595469747962458e-4,  1.9445447567109655e-8,  -2.5779387120421696e-4,
     1.9009987368139304e-4,  -6.7696499937438965e-5, -1.4440629666426572e-10,
     1.5712512518742269e-5,  -1.0304008744776893e-5, 3.304517767401387e-6,
     7.9829760242325709e-13, -6.4097794149313004e-7, 3.8894624761300056e-7,
     -1.1618347644948869e-7, -2.816808630596451e-15, 1.9878012911297093e-8,
     -1.1407719956357511e-8, 3.2355857064185555e-9,  4.1759468293455945e-20,
     -5.0423112718105824e-10},
    {-5.9475779383993003e-3, -5.4016476789260452e-4, 8.7910413550767898e-3,
     -9.8576315587856125e-3, 5.0134695031021538e-3,  1.2807521786221875e-6,
     -2.0626019342754683e-3, 1.7109128573523058e-3,  -6.7695312714133799e-4,
     -6.9011545676562133e-9, 1.8855128143995902e-4,  -1.3395215663491969e-4,
     4.6263183033528039e-5,  4.0034230613321351e-11, -1.0255652921494033e-5,
     6.612086372797651e-6,   -2.0913022027253008e-6, -2.0951775649603837e-13,
     3.9756029041993247e-7,  -2.3956211978815887e-7, 7.1182883382145864e-8,
     8.925574873053455e-16,  -1.2101547235064676e-8, 6.9350618248334386e-9,
     -1.9661464453856102e-9},
    {1.7402027787522711e-2,   -2.9527880945699121e-2, 2.0045875571402799e-2,
     7.0289515966903407e-6,   -1.2375421071343148e-2, 1.1976293444235254e-2,
     -5.4156038466518525e-3,  -6.3290893396418616e-8, 1.8855118129005065e-3,
     -1.473473274825001e-3,   5.5515810097708387e-4,  5.2406834412550662e-10,
     -1.4357913535784836e-4,  9.9181293224943297e-5,  -3.3460834749478311e-5,
     -3.5755837291098993e-12, 7.1560851960630076e-6,  -4.5516802628155526e-6,
     1.4236576649271475e-6,   1.8803149082089664e-14, -2.6623403898929211e-7,
     1.5950642189595716e-7,   -4.7187514673841102e-8, -6.5107872958755177e-17,
     7.9795091026746235e-9},
    {3.0249124160905891e-2,  2.4817436002649977e-3,  -4.9939134373457022e-2, 5.9915643009307869e-2,
     -3.2483207601623391e-2, -5.7212968652103441e-6, 1.5085251778569354e-2,  -1.3261324005088445e-2,
     5.5515262632426148e-3,  3.0263182257030016e-8,  -1.7229548406756723e-3, 1.2893570099929637e-3,
     -4.6845138348319876e-4, -1.830259937893045e-10, 1.1449739014822654e-4,  -7.7378565221244477e-5,
     2.5625836246985201e-5,  1.0766165333192814e-12, -5.3246809282422621e-6, 3.349634863064464e-6,
     -1.0381253128684018e-6, -5.608909920621128e-15, 1.9150821930676591e-7,  -1.1418365800203486e-7,
     3.3654425209171788e-8},
    {-9.9051020880159045e-2, 1.7954011706123486e-1,   -1.2989606383463778e-1,
     -3.1478872752284357e-5, 9.0510635276848131e-2,   -9.2828824411184397e-2,
     4.4412112839877808e-2,  2.7779236316835888e-7,   -1.7229543805449697e-2,
     1.4182925050891573e-2,  -5.6214161633747336e-3,  -2.39598509186381e-9,
     1.6029634366079908e-3,  -1.1606784674435773e-3,  4.1001337768153873e-4,
     1.8365800754090661e-11, -9.5844256563655903e-5,  6.3643062337764708e-5,
     -2.076250624489065e-5,  -1.1806020912804483e-13, 4.2131808239120649e-6,
     -2.6262241337012467e-6, 8.0770620494930662e-7,   6.0125912123632725e-16,
     -1.4729737374018841e-7},
    {-1.9994542198219728e-1, -1.5056113040026424e-2, 3.6470239469348489e-1,
     -4.6435192311733545e-1, 2.6640934719197893e-1,  3.4038266027147191e-5,
     -1.3784338709329624e-1, 1.276467178337056e-1,   -5.6213828755200985e-2,
     -1.753150885483011e-7,  1.9235592956768113e-2,  -1.5088821281095315e-2,
     5.7401854451350123e-3,  1.0622382710310225e-9,  -1.5335082692563998e-3,
     1.0819320643228214e-3,  -3.7372510193945659e-4, -6.6170909729031985e-12,
     8.4263617380909628e-5,  -5.5150706827483479e-5, 1.7769536448348069e-5,
     3.8827923210205533e-14, -3.53513697488768e-6,   2.1865832130045269e-6,
     -6.6812849447625594e-7},
    {7.2438608504029431e-1,   -1.3918010932653375,    1.0654143352413968,
     1.876173868950258e-4,    -8.2705501176152696e-1, 8.9352433347828414e-1,
     -4.4971003995291339e-1,  -1.6107401567546652e-6, 1.9235590165271091e-1,
     -1.6597702160042609e-1,  6.8882222681814333e-2,  1.3910091724608687e-8,
     -2.146911561508663e-2,   1.6228980898865892e-2,  -5.9796016172584256e-3,
     -1.1287469112826745e-10, 1.5167451119784857e-3,  -1.0478634293553899e-3,
     3.5539072889126421e-4,   8.1704322111801517e-13, -7.7773013442452395e-5,
     5.0291413897007722e-5,   -1.6035083867000518e-5, 1.2469354315487605e-14,
     3.1369106244517615e-6},
    {1.6668949727276811,     1.165462765994632e-1,   -3.3288393225018906,    4.4692325482864037,
     -2.6977693045875807,    -2.600667859891061e-4,  1.5389017615694539,     -1.4937962361134612,
     6.8881964633233148e-1,  1.3077482004552385e-6,  -2.5762963325596288e-1, 2.1097676102125449e-1,
     -8.3714408359219882e-2, -7.7920428881354753e-9, 2.4267923064833599e-2,  -1.7813678334552311e-2,
     6.3970330388900056e-3,  4.9430807090480523e-11, -1.5554602758465635e-3, 1.0561196919903214e-3,
     -3.5277184460472902e-4, 9.3002334645022459e-14, 7.5285855026557172e-5,  -4.8186515569156351e-5,
     1.5227271505597605e-5},
    {-6.6188298861372935,    1.3397985455142589e+1,  -1.0789350606845146e+1,
     -1.4352254537875018e-3, 9.2333694596189809,     -1.0456552819547769e+1,
     5.5105526029033471,     1.2024439690716742e-5,  -2.5762961164755816,
     2.3207442745387179,     -1.0045728797216284,    -1.0207833290021914e-7,
     3.3975092171169466e-1,  -2.6720517450757468e-1, 1.0235252851562706e-1,
     8.4329730484871625e-10, -2.7998284958442595e-2, 2.0066274144976813e-2,
     -7.0554368915086242e-3, 1.9402238183698188e-12, 1.6562888105449611e-3,
     -1.1082898580743683e-3, 3.654545161310169e-4,   -5.1290032026971794e-11,
     -7.6340103696869031e-5},
    {-1.7112706061976095e+1, -1.1208044642899116,    3.7131966511885444e+1,
     -5.2298271025348962e+1, 3.3058589696624618e+1,  2.4791298976200222e-3,
     -2.061089403411526e+1,  2.088672775145582e+1,   -1.0045703956517752e+1,
     -1.2238783449063012e-5, 4.0770134274221141,     -3.473667358470195,
     1.4329352617312006,     7.1359914411879712e-8,  -4.4797257159115612e-1,
     3.4112666080644461e-1,  -1.2699786326594923e-1, -2.8953677269081528e-10,
     3.3125776278259863e-2,  -2.3274087021036101e-2, 8.0399993503648882e-3,
     -1.177805216235265e-9,  -1.8321624891071668e-3, 1.2108282933588665e-3,
     -3.9479941246822517e-4},
    {7.389033153567425e+1,   -1.5680141270402273e+2, 1.322177542759164e+2,   1.3692876877324546e-2,
     -1.2366496885920151e+2, 1.4620689391062729e+2,  -8.0365587724865346e+1, -1.1259851148881298e-4,
     4.0770132196179938e+1,  -3.8210340013273034e+1, 1.719522294277362e+1,   9.3519707955168356e-7,
     -6.2716159907747034,    5.1168999071852637,     -2.0319658112299095,    -4.9507215582761543e-9,
     5.9626397294332597e-1,  -4.4220765337238094e-1, 1.6079998700166273e-1,  -2.4733786203223402e-8,
     -4.0307574759979762e-2, 2.7849050747097869e-2,  -9.4751858992054221e-3, 6.419922235909132e-6,
     2.1250180774699461e-3},
    {2.1216837098382522e+2,  1.3107863022633868e+1,  -4.9698285932871748e+2, 7.3121595266969204e+2,
     -4.8213821720890847e+2, -2.8817248692894889e-2, 3.2616720302947102e+2,  -3.4389340280087117e+2,
     1.7195193870816232e+2,  1.4038077378096158e-4,  -7.52594195897599e+1,   6.651969984520934e+1,
     -2.8447519748152462e+1, -7.613702615875391e-7,  9.5402237105304373,     -7.5175301113311376,
     2.8943997568871961,     -4.6612194999538201e-7, -8.0615149598794088e-1, 5.8483006570631029e-1,
     -2.0845408972964956e-1, 1.4765818959305817e-4,  5.1000433863753019e-2,  -3.3066252141883665e-2,
     1.5109265210467774e-2},
    {-9.8959643098322368e+2, 2.1925555360905233e+3,  -1.9283586782723356e+3, -1.5925738122215253e-1,
     1.9569985945919857e+3,  -2.4072514765081556e+3, 1.3756149959336496e+3,  1.2920735237496668e-3,
     -7.525941715948055e+2,  7.3171668742208716e+2,  -3.4137023466220065e+2, -9.9857390260608043e-6,
     1.3356313181291573e+2,  -1.1276295161252794e+2, 4.6310396098204458e+1,  -7.9237387133614756e-6,
     -1.4510726927018646e+1, 1.1111771248100563e+1,  -4.1690817945270892,    3.1008219800117808e-3,
     1.1220095449981468,     -7.6052379926149916e-1, 3.6262236505085254e-1,  2.216867741940747e-1,
     4.8683443692930507e-1},
};

#define SF_T         float
#define SF_SUFFIX    _f
#define SF_FMA       fmaf
#define SF_TRUNC     truncf
#define SF_LOG       logf
#define SF_SIN       sinf
#define SF_COS       cosf
#define SF_FABS      fabsf
#define SF_SQRT      sqrtf
#define SF_EXP       expf
#define SF_ERF       erff
#define SF_LGAMMA    lgammaf
#define SF_POW       powf
#define SF_LOG1P     log1pf
#define SF_EXPM1     expm1f
#define SF_ERFC      erfcf
#define SF_I1_SKIP_A 12
#define SF_I1_SKIP_B 18
#include "special_math.h"
#undef SF_T
#undef SF_SUFFIX
#undef SF_FMA
#undef SF_TRUNC
#undef SF_LOG
#undef SF_SIN
#undef SF_COS
#undef SF_FABS
#undef SF_SQRT
#undef SF_EXP
#undef SF_ERF
#undef SF_LGAMMA
#undef SF_POW
#undef SF_LOG1P
#undef SF_EXPM1
#undef SF_ERFC
#undef SF_I1_SKIP_A
#undef SF_I1_SKIP_B
#define SF_T         double
#define SF_SUFFIX    _d
#define SF_FMA       fma
#define SF_TRUNC     trunc
#define SF_LOG       log
#define SF_SIN       sin
#define SF_COS       cos
#define SF_FABS      fabs
#define SF_SQRT      sqrt
#define SF_EXP       exp
#define SF_ERF       erf
#define SF_LGAMMA    lgamma
#define SF_POW       pow
#define SF_LOG1P     log1p
#define SF_EXPM1     expm1
#define SF_ERFC      erfc
#define SF_I1_SKIP_A 0
#define SF_I1_SKIP_B 0
#include "special_math.h"

/* ---- zeta and polygamma (always accumulated in double, as PyTorch's CPU
 * accumulate type for float is double) ---- */

static double zeta_d(double x, double q) {
    static const double A[] = {12.0,
                               -720.0,
                               30240.0,
                               -1209600.0,
                               47900160.0,
                               -1.8924375803183791606e9,
                               7.47242496e10,
                               -2.950130727918164224e12,
                               1.1646782814350067249e14,
                               -4.5979787224074726105e15,
                               1.8152105401943546773e17,
                               -7.1661652561756670113e18};
    const double machep = 1.11022302462515654042E-16;
    if (x == 1) return INFINITY;
    if (x < 1) return NAN;
    if (q <= 0) {
        if (q == floor(q)) return INFINITY;
        if (x != floor(x)) return NAN;
    }
    double s = pow(q, -x), a = q, b = 0;
    int i = 0;
    while (i < 9 || a <= 9.0) {
        i += 1;
        a += 1;
        b = pow(a, -x);
        s += b;
        if (-machep * s < b && b < machep * s) return s;
    }
    double w = a;
    s += b * w / (x - 1);
    s = fma(-0.5, b, s); /* s -= b / 2, fused as PyTorch's build fuses it */
    a = 1;
    double k = 0;
    for (i = 0; i < 12; i++) {
        a *= x + k;
        b /= w;
        double t = a * b / A[i];
        s = s + t;
        t = fabs(t / s);
        if (t < machep) return s;
        k += 1;
        a *= x + k;
        b /= w;
        k += 1;
    }
    return s;
}

/* ---- the unary functions ---- */

/* which = function | order << 8 (polygamma's n); logit's eps is p.f[0]. */
#define FN(which)    ((which)&0xff)
#define ORDER(which) ((which) >> 8)

static float lgamma_f(float x) {
    return nn_sleef_float(NN_SLEEF_LGAMMA)(x);
}
static double lgamma_d(double x) {
    return nn_sleef_double(NN_SLEEF_LGAMMA)(x);
}

/* erfcx(x) = exp(x^2) erfc(x): in long double while erfc has range, then
 * Laplace's continued fraction erfc(x) ~ exp(-x^2) / (x sqrt(pi)) K. */
static double erfcx_pos(double x) {
    if (x != x) return x;
    if (x < 26.0) {
        long double lx = x;
        return (double)(expl(lx * lx) * erfcl(lx));
    }
    if (x > 1e8) return 0.5641895835477563 / x;
    /* continued fraction, evaluated from the tail (30 levels converge to
     * double precision for x >= 26) */
    double f = 0;
    for (int k = 30; k >= 1; k--) f = (k / 2.0) / (x + f);
    return 0.5641895835477563 / (x + f);
}

/* x < 0: 2 exp(x^2) - erfcx(-x), with x^2 and exp rounded in the input's
 * type as PyTorch's (Faddeeva) code rounds them. */
static double erfcx_d(double x) {
    if (!(x < 0)) return erfcx_pos(x);
    if (x < -26.7) return INFINITY;
    double e = 2 * exp(x * x);
    return x < -6.1 ? e : e - erfcx_pos(-x);
}

static float erfcx_f(float x) {
    if (!(x < 0)) return (float)erfcx_pos((double)x);
    if (x < -26.7f) return INFINITY;
    float e = 2 * expf(x * x);
    return x < -6.1f ? e : e - (float)erfcx_pos(-(double)x);
}

/* PyTorch's ndtr: 0.5 erfc(-x / sqrt 2) written as in calc_ndtr. */
#define NDTR_BODY(T, ERF, ERFC)                                                                    \
    T t = x * (T)M_SQRT1_2;                                                                        \
    T z = t < 0 ? -t : t;                                                                          \
    T y;                                                                                           \
    if (z < (T)M_SQRT1_2)                                                                          \
        y = (T)0.5 + (T)0.5 * ERF(t);                                                              \
    else {                                                                                         \
        y = (T)0.5 * ERFC(z);                                                                      \
        if (t > 0) y = 1 - y;                                                                      \
    }                                                                                              \
    return y;

static float ndtr_f(float x) {
    NDTR_BODY(float, erff, erfcf)
}
static double ndtr_d(double x) {
    NDTR_BODY(double, erf, erfc)
}

static float log_ndtr_f(float x) {
    float t = x * (float)M_SQRT1_2;
    if (x < -1.0f) return logf(erfcx_f(-t) / 2) - t * t;
    return log1pf(-erfcf(t) / 2);
}
static double log_ndtr_d(double x) {
    double t = x * M_SQRT1_2;
    if (x < -1.0) return log(erfcx_d(-t) / 2) - t * t;
    return log1p(-erfc(t) / 2);
}

#define SINC_BODY(T, SIN)                                                                          \
    if (x == 0) return 1;                                                                          \
    T p = (T)M_PI * x;                                                                             \
    return SIN(p) / p;

static float sinc_f(float x) {
    SINC_BODY(float, sinf)
}
static double sinc_d(double x) {
    SINC_BODY(double, sin)
}

#define ENTR_BODY(T, LOG)                                                                          \
    if (x != x) return x;                                                                          \
    if (x > 0) return -x * LOG(x);                                                                 \
    if (x == 0) return 0;                                                                          \
    return -(T)INFINITY;

static float entr_f(float x) {
    ENTR_BODY(float, logf)
}
static double entr_d(double x) {
    ENTR_BODY(double, log)
}

static float apply_f(int which, float x) {
    switch (FN(which)) {
    case NN_SPECIAL_DIGAMMA: return sf_digamma_f(x);
    case NN_SPECIAL_POLYGAMMA: {
        int n = ORDER(which);
        if (n == 0) return sf_digamma_f(x);
        if (n == 1) return sf_trigamma_f(x);
        /* (-1)^(n+1) n! zeta(n + 1, x): n! = exp(lgamma(n + 1)) in double,
         * then float, as torch 1.13's kernel rounds it */
        float fac = (float)exp(lgamma((double)n + 1.0));
        return ((n % 2) ? 1.0f : -1.0f) * fac * (float)zeta_d((double)(n + 1), (double)x);
    }
    case NN_SPECIAL_LGAMMA: return lgamma_f(x);
    case NN_SPECIAL_ERFINV: return sf_erfinv_f(x);
    case NN_SPECIAL_ERFC: return nn_sleef_float(NN_SLEEF_ERFC)(x);
    case NN_SPECIAL_ERFCX: return erfcx_f(x);
    case NN_SPECIAL_I0: return sf_i0_f(x, false);
    case NN_SPECIAL_I0E: return sf_i0_f(x, true);
    case NN_SPECIAL_I1: return sf_i1_f(x, false);
    case NN_SPECIAL_I1E: return sf_i1_f(x, true);
    case NN_SPECIAL_NDTRI: return sf_ndtri_f(x);
    case NN_SPECIAL_NDTR: return ndtr_f(x);
    case NN_SPECIAL_LOG_NDTR: return log_ndtr_f(x);
    case NN_SPECIAL_SINC: return sinc_f(x);
    case NN_SPECIAL_ENTR: return entr_f(x);
    case NN_SPECIAL_EXP2: return exp2f(x);
    case NN_SPECIAL_ASINH: return asinhf(x);
    case NN_SPECIAL_ACOSH: return acoshf(x);
    case NN_SPECIAL_ATANH: return atanhf(x);
    case NN_SPECIAL_BESSEL_J0: return sf_bessel_j0_f(x);
    case NN_SPECIAL_BESSEL_J1: return sf_bessel_j1_f(x);
    case NN_SPECIAL_BESSEL_Y0: return sf_bessel_y0_f(x);
    case NN_SPECIAL_BESSEL_Y1: return sf_bessel_y1_f(x);
    case NN_SPECIAL_MODIFIED_I0: return sf_mod_i0_f(x);
    case NN_SPECIAL_MODIFIED_I1: return sf_mod_i1_f(x);
    case NN_SPECIAL_MODIFIED_K0: return sf_mod_k0_f(x, false);
    case NN_SPECIAL_MODIFIED_K1: return sf_mod_k1_f(x, false);
    case NN_SPECIAL_SCALED_K0: return sf_mod_k0_f(x, true);
    case NN_SPECIAL_SCALED_K1: return sf_mod_k1_f(x, true);
    case NN_SPECIAL_AIRY_AI: return sf_airy_ai_f(x);
    case NN_SPECIAL_SPHERICAL_J0: return sf_sph_j0_f(x);
    default: return NAN;
    }
}

static double apply_d(int which, double x) {
    switch (FN(which)) {
    case NN_SPECIAL_DIGAMMA: return sf_digamma_d(x);
    case NN_SPECIAL_POLYGAMMA: {
        int n = ORDER(which);
        if (n == 0) return sf_digamma_d(x);
        if (n == 1) return sf_trigamma_d(x);
        double fac = exp(lgamma((double)n + 1.0));
        return ((n % 2) ? 1.0 : -1.0) * fac * zeta_d((double)(n + 1), x);
    }
    case NN_SPECIAL_LGAMMA: return lgamma_d(x);
    case NN_SPECIAL_ERFINV: return sf_erfinv_d(x);
    case NN_SPECIAL_ERFC: return nn_sleef_double(NN_SLEEF_ERFC)(x);
    case NN_SPECIAL_ERFCX: return erfcx_d(x);
    case NN_SPECIAL_I0: return sf_i0_d(x, false);
    case NN_SPECIAL_I0E: return sf_i0_d(x, true);
    case NN_SPECIAL_I1: return sf_i1_d(x, false);
    case NN_SPECIAL_I1E: return sf_i1_d(x, true);
    case NN_SPECIAL_NDTRI: return sf_ndtri_d(x);
    case NN_SPECIAL_NDTR: return ndtr_d(x);
    case NN_SPECIAL_LOG_NDTR: return log_ndtr_d(x);
    case NN_SPECIAL_SINC: return sinc_d(x);
    case NN_SPECIAL_ENTR: return entr_d(x);
    case NN_SPECIAL_EXP2: return exp2(x);
    case NN_SPECIAL_ASINH: return asinh(x);
    case NN_SPECIAL_ACOSH: return acosh(x);
    case NN_SPECIAL_ATANH: return atanh(x);
    case NN_SPECIAL_BESSEL_J0: return sf_bessel_j0_d(x);
    case NN_SPECIAL_BESSEL_J1: return sf_bessel_j1_d(x);
    case NN_SPECIAL_BESSEL_Y0: return sf_bessel_y0_d(x);
    case NN_SPECIAL_BESSEL_Y1: return sf_bessel_y1_d(x);
    case NN_SPECIAL_MODIFIED_I0: return sf_mod_i0_d(x);
    case NN_SPECIAL_MODIFIED_I1: return sf_mod_i1_d(x);
    case NN_SPECIAL_MODIFIED_K0: return sf_mod_k0_d(x, false);
    case NN_SPECIAL_MODIFIED_K1: return sf_mod_k1_d(x, false);
    case NN_SPECIAL_SCALED_K0: return sf_mod_k0_d(x, true);
    case NN_SPECIAL_SCALED_K1: return sf_mod_k1_d(x, true);
    case NN_SPECIAL_AIRY_AI: return sf_airy_ai_d(x);
    case NN_SPECIAL_SPHERICAL_J0: return sf_sph_j0_d(x);
    default: return NAN;
    }
}

/* PyTorch's vectorised loops run SLEEF over whole blocks of 2 vectors
 * (16 floats or 8 doubles on AVX2) of a contiguous run and the scalar
 * libm code over the rest: the index where the scalar tail starts. */
static int64_t tail_start(int64_t n, nn_dtype dt) {
    int64_t block = dt == NN_FLOAT32 ? 16 : 8;
    return n - n % block;
}

/* logit(x) = log(x / (1 - x)), x first clamped to [eps, 1 - eps] when
 * eps >= 0; x == 1 gives inf. A dense layout (a transpose, channels_last)
 * is kept and walked as flat memory, as PyTorch's kernel walks it: the
 * same vector blocks and tail as a contiguous input (nn_map_operands).
 * PyTorch's loop takes the memory in runs, each vectorised with its own
 * libm tail: one per thread's part of a dense input (nn_aten_part), a
 * row-major view's rows (nn_vector_runs; none, the scalar op throughout,
 * when its rows are not unit-stride). */
#define LOGIT_RUNS(T, VLOG, LOG)                                                                   \
    {                                                                                              \
        const T *x = nn_tensor_data(c);                                                            \
        T *y = nn_tensor_data(out), lo = (T)eps, hi = (T)1 - (T)eps;                               \
        int64_t step = run > 0 ? run : n;                                                          \
        for (int64_t r = 0; r < n; r += step) {                                                    \
            int64_t m = step < n - r ? step : n - r;                                               \
            int64_t t0 = r + (run > 0 ? tail_start(m, dt) : 0);                                    \
            for (int64_t i = r; i < r + m; i++) {                                                  \
                T v = x[i];                                                                        \
                if (eps >= 0) v = v < lo ? lo : v > hi ? hi : v;                                   \
                y[i] = i < t0 ? VLOG(v / (1 - v)) : v == 1 ? INFINITY : LOG(v / (1 - v));          \
            }                                                                                      \
        }                                                                                          \
    }

static nn_tensor *logit_forward(nn_ctx *ctx, nn_tensor *a, double eps) {
    nn_dtype dt = nn_float_dtype(a->dtype);
    nn_tensor *c = NULL;
    nn_tensor *out = nn_map_operands(ctx, a, dt, &c, NULL);
    if (!out) return NULL;
    int64_t n = nn_tensor_numel(out), run = nn_vector_runs(a);
    if (run == n) run = nn_aten_part(n, 32768);
    if (dt == NN_FLOAT32) {
        nn_sleef_f1 vlog = nn_sleef_float(NN_SLEEF_LOG);
        LOGIT_RUNS(float, vlog, logf)
    } else {
        nn_sleef_d1 vlog = nn_sleef_double(NN_SLEEF_LOG);
        LOGIT_RUNS(double, vlog, log)
    }
    nn_tensor_release(c);
    return out;
}

nn_tensor *op_special_forward(nn_ctx *ctx, nn_node *node) {
    if (FN(node->p.i[0]) == NN_SPECIAL_LOGIT)
        return logit_forward(ctx, node->in[0].t, node->p.f[0]);
    return nn_unary_float_map(ctx, node->in[0].t, (int)node->p.i[0], apply_f, apply_d);
}

/* The derivative times g, each step rounded as the tensor ops of
 * PyTorch's backward formula round: x the input, y the output. */
#define GRAD_BODY(T, F, SUF, EXPF, SQRTF, LOGF, SINF, COSF)                                        \
    switch (FN(which)) {                                                                           \
    case NN_SPECIAL_DIGAMMA: return g * sf_trigamma##SUF(x);                                       \
    case NN_SPECIAL_POLYGAMMA: return g * F((ORDER(which) + 1) << 8 | NN_SPECIAL_POLYGAMMA, x);    \
    case NN_SPECIAL_LGAMMA: return g * sf_digamma##SUF(x);                                         \
    case NN_SPECIAL_ERFINV: return (T)(0.5 * sqrt(M_PI)) * EXPF(y * y) * g;                        \
    case NN_SPECIAL_ERFC: return (T)(-2.0 / sqrt(M_PI)) * EXPF(-(x * x)) * g;                      \
    case NN_SPECIAL_ERFCX: return ((T)2.0 * x * y - (T)(2.0 / sqrt(M_PI))) * g;                    \
    case NN_SPECIAL_I0: return g * sf_i1##SUF(x, false);                                           \
    case NN_SPECIAL_I0E: return g * (sf_i1##SUF(x, true) - (T)((x > 0) - (x < 0)) * y);            \
    case NN_SPECIAL_I1: return (x == 0 ? (T)0.5 : sf_i0##SUF(x, false) - y / x) * g;               \
    case NN_SPECIAL_I1E:                                                                           \
        return (x == 0 ? (T)0.5 : sf_i0##SUF(x, true) - y * ((T)((x > 0) - (x < 0)) + 1 / x)) * g; \
    case NN_SPECIAL_NDTRI: return g * (T)sqrt(2 * M_PI) * EXPF(y * y / 2);                         \
    case NN_SPECIAL_NDTR: return g * ((T)(M_2_SQRTPI / (2 * M_SQRT2)) * EXPF(-(T)0.5 * (x * x)));  \
    case NN_SPECIAL_LOG_NDTR: return g / (T)sqrt(2 * M_PI) * EXPF(-(y + x * x / 2));               \
    case NN_SPECIAL_SINC: {                                                                        \
        if (x == 0) return 0;                                                                      \
        T px = x * (T)M_PI;                                                                        \
        return g * ((px * COSF(px) - SINF(px)) / (x * x * (T)M_PI));                               \
    }                                                                                              \
    case NN_SPECIAL_ENTR: return g * -(1 + LOGF(x));                                               \
    case NN_SPECIAL_EXP2: return g * y * (T)M_LN2;                                                 \
    case NN_SPECIAL_ASINH: return g * (1 / SQRTF(x * x + 1));                                      \
    case NN_SPECIAL_ACOSH: return g * (1 / SQRTF(x * x - 1));                                      \
    case NN_SPECIAL_ATANH: return g / (1 - x * x);                                                 \
    default: return NAN;                                                                           \
    }

/* logit's backward: 0 outside [eps, 1 - eps] (NaN outside [0, 1] without
 * eps), g / (x (1 - x)) inside. */
#define LOGIT_GRAD(T)                                                                              \
    if (eps < 0) {                                                                                 \
        if (x < 0 || x > 1) return (T)NAN;                                                         \
    } else if (x < (T)eps || x > 1 - (T)eps)                                                       \
        return 0;                                                                                  \
    return g / (x * (1 - x));

static float logit_grad_f(double eps, float g, float x) {
    LOGIT_GRAD(float)
}
static double logit_grad_d(double eps, double g, double x) {
    LOGIT_GRAD(double)
}

static float grad_f(int which, float g, float x, float y) {
    GRAD_BODY(float, apply_f, _f, nn_sleef_float(NN_SLEEF_EXP), sqrtf, nn_sleef_float(NN_SLEEF_LOG),
              nn_sleef_float(NN_SLEEF_SIN), nn_sleef_float(NN_SLEEF_COS))
}

static double grad_d(int which, double g, double x, double y){
    GRAD_BODY(double, apply_d, _d, nn_sleef_double(NN_SLEEF_EXP), sqrt,
              nn_sleef_double(NN_SLEEF_LOG), nn_sleef_double(NN_SLEEF_SIN),
              nn_sleef_double(NN_SLEEF_COS))}

nn_status op_special_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    int which = (int)node->p.i[0];
    nn_tensor *x = node->in[0].t, *y = node->out;
    nn_dtype dt = dout->dtype;
    nn_tensor *cg = nn_contiguous_as(ctx, dout, dt);
    nn_tensor *cx = cg ? nn_contiguous_as(ctx, x, dt) : NULL;
    nn_tensor *cy = cx ? nn_contiguous_as(ctx, y, dt) : NULL;
    nn_tensor *out = cy ? nn_tensor_empty(ctx, dt, dout->ndim, dout->shape) : NULL;
    if (out) {
        int64_t n = nn_tensor_numel(out);
        if (dt == NN_FLOAT32) {
            const float *g = nn_tensor_data(cg), *xs = nn_tensor_data(cx), *ys = nn_tensor_data(cy);
            float *o = nn_tensor_data(out);
            if (FN(which) == NN_SPECIAL_LOGIT)
                for (int64_t i = 0; i < n; i++) o[i] = logit_grad_f(node->p.f[0], g[i], xs[i]);
            else
                for (int64_t i = 0; i < n; i++) o[i] = grad_f(which, g[i], xs[i], ys[i]);
        } else {
            const double *g = nn_tensor_data(cg), *xs = nn_tensor_data(cx),
                         *ys = nn_tensor_data(cy);
            double *o = nn_tensor_data(out);
            if (FN(which) == NN_SPECIAL_LOGIT)
                for (int64_t i = 0; i < n; i++) o[i] = logit_grad_d(node->p.f[0], g[i], xs[i]);
            else
                for (int64_t i = 0; i < n; i++) o[i] = grad_d(which, g[i], xs[i], ys[i]);
        }
    }
    nn_tensor_release(cg);
    nn_tensor_release(cx);
    nn_tensor_release(cy);
    din[0] = out;
    return out ? NN_OK : ctx->err.code;
}

nn_tensor *nn_special(nn_ctx *ctx, nn_tensor *a, nn_special_fn fn, int order) {
    nn_params p;
    memset(&p, 0, sizeof p);
    p.i[0] = (int64_t)fn | (int64_t)order << 8;
    return nn_exec(ctx, NN_OP_SPECIAL, &a, 1, &p);
}

nn_tensor *nn_logit(nn_ctx *ctx, nn_tensor *a, double eps) {
    nn_params p;
    memset(&p, 0, sizeof p);
    p.i[0] = NN_SPECIAL_LOGIT;
    p.f[0] = eps;
    return nn_exec(ctx, NN_OP_SPECIAL, &a, 1, &p);
}

/* ---- binary: zeta(x, q), xlogy(x, y), xlog1py(x, y) ---- */

typedef struct bin_arg {
    int which;
} bin_arg;

/* PyTorch's div_floor_floating: floor(a / b) computed from fmod so that it
 * is exact, with b == 0 giving a / b. */
#define DIV_FLOOR_BODY(T, FMOD, FLOOR)                                                             \
    if (b == 0) return a / b;                                                                      \
    T mod = FMOD(a, b);                                                                            \
    T div = (a - mod) / b;                                                                         \
    if (mod != 0 && (b < 0) != (mod < 0)) div -= (T)1;                                             \
    T fd;                                                                                          \
    if (div != 0) {                                                                                \
        fd = FLOOR(div);                                                                           \
        if (div - fd > (T)0.5) fd += (T)1;                                                         \
    } else {                                                                                       \
        fd = copysign((T)0, a / b);                                                                \
    }                                                                                              \
    return fd;

static float div_floor_f(float a, float b) {
    DIV_FLOOR_BODY(float, fmodf, floorf)
}
static double div_floor_d(double a, double b) {
    DIV_FLOOR_BODY(double, fmod, floor)
}

#define REMAINDER_BODY(T, FMOD)                                                                    \
    T mod = FMOD(a, b);                                                                            \
    if (mod != 0 && (b < 0) != (mod < 0)) mod += b;                                                \
    return mod;

static float remainder_f(float a, float b) {
    REMAINDER_BODY(float, fmodf)
}
static double remainder_d(double a, double b) {
    REMAINDER_BODY(double, fmod)
}

static double bin_apply(int which, double a, double b, bool f32) {
    switch (which) {
    case NN_SPECIAL2_REMAINDER:
        return f32 ? (double)remainder_f((float)a, (float)b) : remainder_d(a, b);
    case NN_SPECIAL2_FLOOR_DIVIDE:
    case NN_SPECIAL2_DIV_FLOOR:
        return f32 ? (double)div_floor_f((float)a, (float)b) : div_floor_d(a, b);
    case NN_SPECIAL2_DIV_TRUNC: return f32 ? (double)truncf((float)a / (float)b) : trunc(a / b);
    case NN_SPECIAL2_ZETA: return zeta_d(a, b);
    case NN_SPECIAL2_IGAMMA:
        return f32 ? (double)sf_igamma_f((float)a, (float)b) : sf_igamma_d(a, b);
    case NN_SPECIAL2_IGAMMAC:
        return f32 ? (double)sf_igammac_f((float)a, (float)b) : sf_igammac_d(a, b);
    case NN_SPECIAL2_XLOGY:
        if (b != b) return NAN;
        if (a == 0) return 0;
        return f32 ? (double)((float)a * logf((float)b)) : a * log(b);
    default:
        if (b != b) return NAN;
        if (a == 0) return 0;
        return f32 ? (double)((float)a * log1pf((float)b)) : a * log1p(b);
    }
}

static void bin_loop_f32(char **d, const int64_t *s, int64_t n, void *arg) {
    int which = ((bin_arg *)arg)->which;
    for (int64_t i = 0; i < n; i++) {
        float a = *(const float *)(d[1] + i * s[1]), b = *(const float *)(d[2] + i * s[2]);
        *(float *)(d[0] + i * s[0]) = (float)bin_apply(which, a, b, true);
    }
}

static void bin_loop_f64(char **d, const int64_t *s, int64_t n, void *arg) {
    int which = ((bin_arg *)arg)->which;
    for (int64_t i = 0; i < n; i++) {
        double a = *(const double *)(d[1] + i * s[1]), b = *(const double *)(d[2] + i * s[2]);
        *(double *)(d[0] + i * s[0]) = bin_apply(which, a, b, false);
    }
}

/* [a] and [b] promoted to their float type and broadcast: out, and the
 * casts in *ca, *cb (new references). */
static nn_tensor *bin_setup(nn_ctx *ctx, nn_tensor *a, nn_tensor *b, nn_tensor **ca, nn_tensor **cb,
                            int *nd, int64_t *shape) {
    *ca = *cb = NULL;
    if (nn_broadcast_shapes(ctx, a->ndim, a->shape, b->ndim, b->shape, nd, shape)) return NULL;
    nn_dtype dt = nn_float_dtype(nn_dtype_promote(a, b));
    if (nn_dtype_promote(a, b) == NN_FLOAT64) dt = NN_FLOAT64;
    *ca = nn_tensor_cast_raw(ctx, a, dt);
    *cb = *ca ? nn_tensor_cast_raw(ctx, b, dt) : NULL;
    return *cb ? nn_tensor_empty(ctx, dt, *nd, shape) : NULL;
}

nn_tensor *op_special2_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *ca, *cb;
    int nd;
    int64_t shape[NN_MAX_DIMS];
    nn_tensor *out = bin_setup(ctx, node->in[0].t, node->in[1].t, &ca, &cb, &nd, shape);
    if (out) {
        bin_arg arg = {(int)node->p.i[0]};
        nn_iter it;
        nn_iter_init(&it, nd, shape);
        nn_iter_add(&it, out);
        nn_iter_add(&it, ca);
        nn_iter_add(&it, cb);
        nn_iter_run(&it, out->dtype == NN_FLOAT32 ? bin_loop_f32 : bin_loop_f64, &arg);
    }
    nn_tensor_release(ca);
    nn_tensor_release(cb);
    return out;
}

/* Gradients over the broadcast shape (nn_backward sums them back):
 *   zeta:    d/dq = -x zeta(x + 1, q); none for x (PyTorch has none);
 *   xlogy:   d/dx = log(y) (0 where x == 0 and y is not NaN... as torch:
 *            grad * at::xlogy((self != 0), other)), d/dy = x / y;
 *   xlog1py: d/dx = xlog1py(x != 0, y), d/dy = x / (1 + y). */
typedef struct grad_arg {
    int which, input;
} grad_arg;

/* d/dx igamma(a, x) = exp((a - 1) log(x) - x - lgamma(a)), each step a
 * tensor op of PyTorch's formula (SLEEF's log, lgamma and exp), times g
 * (igammac: times -g). */
static float igamma_grad_f(float g, float a, float x) {
    float t = (a - 1) * nn_sleef_float(NN_SLEEF_LOG)(x) - x;
    return g * nn_sleef_float(NN_SLEEF_EXP)(t - nn_sleef_float(NN_SLEEF_LGAMMA)(a));
}
static double igamma_grad_d(double g, double a, double x) {
    double t = (a - 1) * nn_sleef_double(NN_SLEEF_LOG)(x) - x;
    return g * nn_sleef_double(NN_SLEEF_EXP)(t - nn_sleef_double(NN_SLEEF_LGAMMA)(a));
}

static double bin_grad(const grad_arg *ga, double g, double a, double b, bool f32) {
    switch (ga->which) {
    case NN_SPECIAL2_REMAINDER: /* self: g; other: -g * div(a, b, rounding_mode='floor') */
        if (ga->input == 0) return g;
        return f32 ? (double)(-(float)g * div_floor_f((float)a, (float)b)) : -g * div_floor_d(a, b);
    case NN_SPECIAL2_DIV_FLOOR:
    case NN_SPECIAL2_DIV_TRUNC: return 0;
    case NN_SPECIAL2_IGAMMA:
    case NN_SPECIAL2_IGAMMAC: {
        double sg = ga->which == NN_SPECIAL2_IGAMMA ? g : -g;
        return f32 ? (double)igamma_grad_f((float)sg, (float)a, (float)b) : igamma_grad_d(sg, a, b);
    }
    case NN_SPECIAL2_ZETA: {
        double z = zeta_d(a + 1, b);
        if (f32) return (double)((float)g * ((float)(-a) * (float)z));
        return g * (-a * z);
    }
    case NN_SPECIAL2_XLOGY:
        if (ga->input == 0) {
            double v = bin_apply(NN_SPECIAL2_XLOGY, a != 0, b, f32);
            return f32 ? (double)((float)g * (float)v) : g * v;
        }
        return f32 ? (double)((float)g * (float)a / (float)b) : g * a / b;
    default:
        if (ga->input == 0) {
            double v = bin_apply(NN_SPECIAL2_XLOG1PY, a != 0, b, f32);
            return f32 ? (double)((float)g * (float)v) : g * v;
        }
        return f32 ? (double)((float)g * (float)a / ((float)b + 1.0f)) : g * a / (b + 1.0);
    }
}

static void grad_loop_f32(char **d, const int64_t *s, int64_t n, void *arg) {
    for (int64_t i = 0; i < n; i++) {
        float g = *(const float *)(d[1] + i * s[1]), a = *(const float *)(d[2] + i * s[2]),
              b = *(const float *)(d[3] + i * s[3]);
        *(float *)(d[0] + i * s[0]) = (float)bin_grad(arg, g, a, b, true);
    }
}

static void grad_loop_f64(char **d, const int64_t *s, int64_t n, void *arg) {
    for (int64_t i = 0; i < n; i++) {
        double g = *(const double *)(d[1] + i * s[1]), a = *(const double *)(d[2] + i * s[2]),
               b = *(const double *)(d[3] + i * s[3]);
        *(double *)(d[0] + i * s[0]) = bin_grad(arg, g, a, b, false);
    }
}

nn_status op_special2_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    int which = (int)node->p.i[0];
    for (int k = 0; k < 2; k++) {
        if (!node->in[k].needs_grad) continue;
        if (k == 0 && (which == NN_SPECIAL2_ZETA || which == NN_SPECIAL2_IGAMMA ||
                       which == NN_SPECIAL2_IGAMMAC))
            return nn_error_set(&ctx->err, NN_ERR_NOT_IMPLEMENTED,
                                "the derivative for '%s' is not implemented.",
                                which == NN_SPECIAL2_ZETA     ? "zeta"
                                : which == NN_SPECIAL2_IGAMMA ? "igamma: input"
                                                              : "igammac: input");
        if (which == NN_SPECIAL2_FLOOR_DIVIDE)
            return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                                "derivative for aten::floor_divide is not implemented");
        nn_tensor *ca, *cb;
        int nd;
        int64_t shape[NN_MAX_DIMS];
        nn_tensor *out = bin_setup(ctx, node->in[0].t, node->in[1].t, &ca, &cb, &nd, shape);
        nn_tensor *cg = out ? nn_tensor_cast_raw(ctx, dout, out->dtype) : NULL;
        if (cg) {
            grad_arg ga = {which, k};
            nn_iter it;
            nn_iter_init(&it, nd, shape);
            nn_iter_add(&it, out);
            nn_iter_add(&it, cg);
            nn_iter_add(&it, ca);
            nn_iter_add(&it, cb);
            nn_iter_run(&it, out->dtype == NN_FLOAT32 ? grad_loop_f32 : grad_loop_f64, &ga);
        } else {
            nn_tensor_release(out);
            out = NULL;
        }
        nn_tensor_release(ca);
        nn_tensor_release(cb);
        nn_tensor_release(cg);
        if (!out) return ctx->err.code;
        din[k] = out;
    }
    return NN_OK;
}

nn_tensor *nn_special2(nn_ctx *ctx, nn_tensor *a, nn_tensor *b, nn_special2_fn fn) {
    nn_params p;
    memset(&p, 0, sizeof p);
    p.i[0] = fn;
    nn_tensor *in[2] = {a, b};
    return nn_exec(ctx, NN_OP_SPECIAL2, in, 2, &p);
}

/* ---- costs: one FLOP per element (a special function counts as one, as
 * the other transcendental functions do) ---- */
bool nn_cost_special(const nn_node *n, const nn_tensor *out, nn_op_cost *c) {
    switch (n->op) {
    case NN_OP_SPECIAL:
    case NN_OP_SPECIAL2: c->flops = nn_cost_numel(out); return true;
    default: return false;
    }
}
