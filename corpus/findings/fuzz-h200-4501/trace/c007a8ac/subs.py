exec(open("reduce.py").read().split("if __name__")[0])
import sys
subs={
 'a_r10_plain_ld': ('ld.acquire.sys.global.b32 %r10, [%in+216];','ld.global.b32 %r10, [%in+216];'),
 'b_no_h39': ('xor.b16 %h41, %h40, %h39;','mov.b16 %h41, %h40;'),
 'c_st_v4_not_release': ('st.release.cluster.shared::cta.v4.u16','st.shared.v4.u16'),
 'd_f16_not_pair': ('cvt.rn.satfinite.e4m3x2.f16x2 %h6, %r3;','cvt.rn.f16.f32 %h6, %r3;'),
 'e_st_u16_h12': ('st.global.s8 [%out+6], %h12;','st.global.u16 [%out+6], %h12;'),
 'f_h12_moved_before_read': ('st.global.s8 [%out+6], %h12;','st.global.s8 [%out+6], %h12;'),
}
for n,(a,b) in subs.items():
    t=[l.replace(a,b) for l in lines]
    if n.startswith('f'):
        t=[l for l in lines if 's8 [%out+6]' not in l]; i=[k for k,l in enumerate(t) if 'ld.acquire.sys' in l][0]; t.insert(i,'\tst.global.s8 [%out+6], %h12;')
    print(n, form(t))
    open(f'var/o_{n}.ptx','w').write(pre+'// begin body\n'+'\n'.join(t)+'\n// end body\n'+post)
